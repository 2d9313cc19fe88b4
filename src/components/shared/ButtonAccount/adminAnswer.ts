/**
 * Whether each signed-in account may open the seller's console, asked of the worker once per page
 * load: the account menu opens often, and the answer changes only when the seller edits
 * ADMIN_EMAILS. A failed ask is not kept, so the next opening asks again.
 */
const answers = new Map<string, Promise<boolean>>();

export function adminAnswer(uid: string, ask: () => Promise<boolean>): Promise<boolean> {
  let answer = answers.get(uid);
  if (!answer) {
    answer = ask();
    answers.set(uid, answer);
    answer.catch(() => answers.delete(uid));
  }
  return answer;
}
