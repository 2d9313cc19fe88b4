/**
 * Draws the brand images in static/ from the Logo component and the config:
 * logo, icons, favicon, social cards, the demo poster and the avatars.
 * Run `npm run brand-images` after changing the name, colour or logo.
 *
 * Every page preloads the social card and the landing page paints the poster
 * first, so both are kept light: the card is a JPEG (what every network
 * accepts) under 60 KB, the poster a WebP in each width the page offers.
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import React from 'react';
import {renderToStaticMarkup} from 'react-dom/server';
import {posterFile} from '../src/components/landing/Hero/poster';
import Logo from '../src/components/shared/Logo';
import {appConfig, landing, serviceName} from '../src/config';
import {launchChromium} from './support/chromium';

const root = path.join(__dirname, '..');
const img = path.join(root, 'static', 'img');
const logo = (size: number) => renderToStaticMarkup(<Logo size={size} />);
const font = `font-family: Inter, 'Liberation Sans', Arial, sans-serif;`;

function page(body: string, background = 'transparent'): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    html, body { margin: 0; background: ${background}; ${font} }
    * { box-sizing: border-box; }
  </style></head><body>${body}</body></html>`;
}

function socialCard(): string {
  return page(
    `<div style="width:1200px;height:660px;display:flex;flex-direction:column;justify-content:center;gap:36px;padding:0 96px;
      background:linear-gradient(135deg,#0b1f1c 0%,#134e4a 100%);color:#fff">
      <div style="display:flex;align-items:center;gap:24px;font-size:56px;font-weight:800">${logo(96)}<span>${appConfig.appName}</span></div>
      <div style="font-size:64px;font-weight:800;line-height:1.1;letter-spacing:-1px;max-width:960px">${landing.hero.headline}</div>
      <div style="font-size:30px;color:#ccece6;max-width:960px">Sign-in, Stripe payments, e-mails, SEO and docs. Pay once, ship forever.</div>
    </div>`,
  );
}

function demoPoster(): string {
  // The folder a clone makes is the repository's name, which follows the product's (serviceName).
  const lines = [
    `$ git clone git@github.com:you/${serviceName}.git`,
    `$ cd ${serviceName} && npm ci`,
    '$ npm start',
    '',
    '  Site ready at http://localhost:4200',
    '  Landing page, checkout and docs are live.',
  ];
  return page(
    `<div style="width:1280px;height:720px;display:flex;align-items:center;justify-content:center;background:#0b1f1c">
      <div style="width:1040px;border-radius:18px;overflow:hidden;box-shadow:0 30px 80px rgba(0,0,0,.5)">
        <div style="height:44px;background:#1e293b;display:flex;align-items:center;gap:10px;padding:0 18px">
          <span style="width:14px;height:14px;border-radius:50%;background:#f87171"></span>
          <span style="width:14px;height:14px;border-radius:50%;background:#fbbf24"></span>
          <span style="width:14px;height:14px;border-radius:50%;background:#34d399"></span>
          <span style="margin-left:16px;color:#94a3b8;font-size:18px">${appConfig.appName} demo</span>
        </div>
        <pre style="margin:0;padding:36px 40px;background:#0f172a;color:#e2e8f0;font:28px/1.6 'Liberation Mono',monospace">${lines.join('\n')}</pre>
      </div>
      <div style="position:absolute;width:120px;height:120px;border-radius:50%;background:rgba(255,255,255,.92);display:flex;align-items:center;justify-content:center">
        <svg width="56" height="56" viewBox="0 0 20 20"><path d="M6 4.5v11l9-5.5z" fill="${appConfig.themeColor}"/></svg>
      </div>
    </div>`,
  );
}

/** An ICO file holding PNG images, which every current browser reads. */
function ico(pngs: Array<{size: number; data: Buffer}>): Buffer {
  const header = Buffer.alloc(6 + 16 * pngs.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  let offset = header.length;
  pngs.forEach(({size, data}, index) => {
    const entry = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...pngs.map((png) => png.data)]);
}

const avatarColours = ['#0f766e', '#7c3aed', '#b45309', '#be123c', '#1d4ed8'];

function avatar(name: string, colour: string): string {
  const initials = name
    .split(/\s+/)
    .map((part) => part[0])
    .join('')
    .replace(/\W/g, '')
    .slice(0, 2)
    .toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 88 88" width="88" height="88"><rect width="88" height="88" rx="44" fill="${colour}"/><text x="44" y="55" text-anchor="middle" font-family="Arial, sans-serif" font-size="32" font-weight="700" fill="#ffffff">${initials}</text></svg>\n`;
}

async function main() {
  mkdirSync(path.join(img, 'avatars'), {recursive: true});
  landing.testimonials.avatars.forEach((entry, index) => {
    writeFileSync(
      path.join(root, 'static', entry.src),
      avatar(entry.name, avatarColours[index % avatarColours.length]),
    );
  });

  const browser = await launchChromium();
  async function shoot(html: string, width: number, height: number): Promise<Buffer> {
    const tab = await browser.newPage({viewport: {width, height}});
    await tab.setContent(html);
    const png = await tab.screenshot({omitBackground: true});
    await tab.close();
    return png;
  }
  const square = (size: number) => shoot(page(logo(size)), size, size);
  /** Chromium's own WebP encoder, through a canvas, at the given width. */
  async function webp(png: Buffer, width: number): Promise<Buffer> {
    const tab = await browser.newPage();
    const dataUrl = await tab.evaluate(
      async ({source, width}) => {
        const image = new Image();
        image.src = source;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = width;
        canvas.height = Math.round((image.naturalHeight * width) / image.naturalWidth);
        const context = canvas.getContext('2d')!;
        context.imageSmoothingQuality = 'high';
        context.drawImage(image, 0, 0, canvas.width, canvas.height);
        return canvas.toDataURL('image/webp', 0.8);
      },
      {source: `data:image/png;base64,${png.toString('base64')}`, width},
    );
    await tab.close();
    return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  }

  writeFileSync(path.join(img, 'logo.png'), await square(512));
  writeFileSync(path.join(img, 'icon.png'), await square(512));
  writeFileSync(
    path.join(img, 'apple-icon.png'),
    await shoot(
      page(
        `<div style="width:180px;height:180px;background:${appConfig.themeColor};display:flex;align-items:center;justify-content:center">${logo(180)}</div>`,
      ),
      180,
      180,
    ),
  );
  writeFileSync(
    path.join(img, 'logoAndName.png'),
    await shoot(
      page(
        `<div style="height:160px;display:flex;align-items:center;gap:28px;padding:0 24px;font-size:96px;font-weight:800;color:#0f172a">${logo(128)}<span>${appConfig.appName}</span></div>`,
      ),
      720,
      160,
    ),
  );
  writeFileSync(
    path.join(root, 'static', 'favicon.ico'),
    ico([
      {size: 48, data: await square(48)},
      {size: 32, data: await square(32)},
      {size: 16, data: await square(16)},
    ]),
  );
  const cardTab = await browser.newPage({viewport: {width: 1200, height: 660}});
  await cardTab.setContent(socialCard());
  const card = await cardTab.screenshot({type: 'jpeg', quality: 70});
  await cardTab.close();
  writeFileSync(path.join(img, 'opengraph-image.jpg'), card);
  writeFileSync(path.join(img, 'twitter-image.jpg'), card);

  const {poster} = landing.hero.demoVideo;
  const posterPng = await shoot(demoPoster(), 1280, 720);
  for (const width of poster.widths) {
    writeFileSync(path.join(root, 'static', posterFile(poster, width)), await webp(posterPng, width));
  }
  await browser.close();
  console.log(`Brand images written to ${path.relative(root, img)}/ and static/favicon.ico`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
