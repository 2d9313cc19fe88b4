/**
 * The part of nprogress (0.2) the classic theme calls, `configure`, `start` and `done`, drawing
 * the same markup its CSS styles (`#nprogress .bar .peg`), without `role="bar"`, which is no ARIA
 * role (axe: aria-roles). As nprogress does with its defaults, the bar starts at 8%, creeps about
 * 1% every 800 ms while the next page loads (never to the end), then fills and fades out.
 */
const MINIMUM = 0.08;
const CREEP_EVERY_MS = 800;
const CREEP_STEP = 0.01;
const MOST = 0.994;
const SPEED_MS = 200;

let root = null;
let status = null;
let creeping = 0;

function show(fraction) {
  status = fraction;
  if (!root) {
    // A bar still fading out from the last navigation goes at once: one #nprogress at a time.
    document.getElementById('nprogress')?.remove();
    root = document.createElement('div');
    root.id = 'nprogress';
    root.innerHTML = '<div class="bar"><div class="peg"></div></div>';
    document.body.appendChild(root);
  }
  const bar = root.firstChild;
  bar.style.transition = `transform ${SPEED_MS}ms linear`;
  bar.style.transform = `translate3d(${(fraction - 1) * 100}%,0,0)`;
}

function creep() {
  if (status !== null && status < MOST) show(Math.min(status + CREEP_STEP, MOST));
}

export default {
  configure() {
    return this;
  },
  start() {
    if (status === null) show(MINIMUM);
    window.clearInterval(creeping);
    creeping = window.setInterval(creep, CREEP_EVERY_MS);
    return this;
  },
  done() {
    if (status === null) return this;
    window.clearInterval(creeping);
    show(1);
    const finished = root;
    root = null;
    status = null;
    window.setTimeout(() => {
      finished.style.transition = `opacity ${SPEED_MS}ms linear`;
      finished.style.opacity = '0';
      window.setTimeout(() => finished.remove(), SPEED_MS);
    }, SPEED_MS);
    return this;
  },
};
