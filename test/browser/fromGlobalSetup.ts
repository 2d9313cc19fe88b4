/** A variable the browser globalSetup sets, or a plain error where the run did not go through it. */
export function fromGlobalSetup(variable: string): string {
  const value = process.env[variable];
  if (!value)
    throw new Error(`${variable} is not set: the browser project runs through jest, whose globalSetup sets it.`);
  return value;
}
