/**
 * The part of nprogress (0.2) the classic theme calls, `configure`, `start` and `done`, drawing
 * the same markup its CSS styles (`#nprogress .bar .peg`), without `role="bar"`, which is no ARIA
 * role (axe: aria-roles). Like nprogress, the bar creeps towards the end while the next page
 * loads, in smaller steps the further it is, and fills and fades out when it has.
 */
let root = null;
let status = null;
let creeping = 0;

function show(fraction) {
  status = fraction;
  if (!root) {
    root = document.createElement('div');
    root.id = 'nprogress';
    root.innerHTML = '<div class="bar"><div class="peg"></div></div>';
    document.body.appendChild(root);
  }
  const bar = root.firstChild;
  bar.style.transition = 'transform 200ms linear';
  bar.style.transform = `translate3d(${(fraction - 1) * 100}%,0,0)`;
}

function creep() {
  if (status === null || status >= 0.994) return;
  const step = status < 0.2 ? 0.1 : status < 0.5 ? 0.04 : status < 0.8 ? 0.02 : 0.005;
  show(Math.min(status + step, 0.994));
}

export default {
  configure() {
    return this;
  },
  start() {
    if (status === null) show(0.08);
    window.clearInterval(creeping);
    creeping = window.setInterval(creep, 200);
    return this;
  },
  done() {
    if (status === null) return this;
    window.clearInterval(creeping);
    show(1);
    const finished = root;
    window.setTimeout(() => {
      finished.style.transition = 'opacity 200ms linear';
      finished.style.opacity = '0';
      window.setTimeout(() => finished.remove(), 200);
    }, 200);
    root = null;
    status = null;
    return this;
  },
};
