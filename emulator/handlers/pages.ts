// HTML pages with the `__UNIVERSAL_DATA_FOR_REHYDRATION__` script: profile, video, tag and home.
// Each scope carries its own statusCode, as the platform's pages do (PLATFORM.md §2.2, §2.8).
import { randomBytes } from 'node:crypto';
import { itemStructOf } from '../wire/item.ts';
import { profileUserOf, statsPair, userCounts } from '../wire/user.ts';
import { STATUS_MESSAGES } from '../wire/envelope.ts';
import { challengeInfoOf, itemStatus, shareMetaOfUser, shareMetaOfVideo } from './api-entities.ts';
import type { Handler, PlatformRequest, Reply } from './types.ts';

function appContext(req: PlatformRequest) {
  const ua = req.headers['user-agent'];
  return {
    abTestVersion: { parameters: {}, versionName: '70508271,72422414,72783099' },
    appId: 1988,
    appType: 'pc',
    botType: 'others',
    clusterRegion: 'TTP',
    csrfToken: req.cookies.tt_csrf_token ?? randomBytes(18).toString('base64url'),
    encryptedWebid: '',
    host: 'www.tiktok.com',
    language: 'en',
    nonce: randomBytes(15).toString('base64url'),
    region: 'US',
    requestId: String(req.nowMs) + String(Math.floor(Math.random() * 1e6)),
    userAgent: typeof ua === 'string' ? ua : '',
    wid: req.cookies.ttwid ? String(7_400_000_000_000_000_000n + BigInt(req.nowMs)) : '',
  };
}

function page(req: PlatformRequest, title: string, scopes: Record<string, unknown>): Reply {
  return { status: 200, headers: {}, page: { title, scope: { 'webapp.app-context': appContext(req), ...scopes } } };
}

export function renderPage(title: string, scope: Record<string, unknown>, script?: string): string {
  // `<` is escaped so user text cannot close the script element.
  const data = JSON.stringify({ __DEFAULT_SCOPE__: scope }).replace(/</g, '\\u003c');
  const sdk = script === undefined ? '' : `<script>${script}</script>`;
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${sdk}</head>` +
    `<body><div id="app"></div>` +
    `<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${data}</script>` +
    `</body></html>`
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

export const profilePage: Handler = (req) => {
  const name = decodeURIComponent(req.path.slice(2).split('/')[0]);
  const user = req.ds.userByUniqueId(name);
  if (!user || user.banned) {
    const code = user ? 10221 : 10202;
    return page(req, 'TikTok', { 'webapp.user-detail': { statusCode: code, statusMsg: STATUS_MESSAGES[code], needFix: false } });
  }
  // A private profile still shows the user, with statusCode 10222 (PLATFORM.md §4).
  const code = user.privateAccount ? 10222 : 0;
  const { stats } = statsPair(userCounts(req.ds, user));
  return page(req, `${user.nickname} (@${user.uniqueId}) | TikTok`, {
    'webapp.user-detail': {
      needFix: true,
      shareMeta: shareMetaOfUser(req.ds, user),
      statusCode: code,
      statusMsg: STATUS_MESSAGES[code] ?? '',
      userInfo: { itemList: [], stats, user: profileUserOf(req.ctx, user) },
    },
  });
};

export const videoPage: Handler = (req) => {
  const id = req.path.split('/')[3] ?? '';
  const video = req.ds.videos.byId(id);
  const code = itemStatus(req.ds, video);
  if (code !== 0 || !video) {
    return page(req, 'TikTok', {
      'webapp.video-detail': { shareMeta: { desc: '', title: '' }, statusCode: code, statusMsg: STATUS_MESSAGES[code] },
    });
  }
  return page(req, `${video.caption} | TikTok`, {
    'webapp.video-detail': {
      itemInfo: { itemStruct: itemStructOf(req.ctx, req.ds, video) },
      shareMeta: shareMetaOfVideo(video),
      statusCode: 0,
      statusMsg: '',
    },
  });
};

export const tagPage: Handler = (req) => {
  const name = decodeURIComponent(req.path.slice('/tag/'.length).split('/')[0]);
  const tag = req.ds.lists.tagByName(name);
  if (!tag) {
    return page(req, 'TikTok', { 'webapp.challenge-detail': { statusCode: 10205, statusMsg: STATUS_MESSAGES[10205] } });
  }
  return page(req, `#${tag.title} | TikTok`, {
    'webapp.challenge-detail': {
      challengeInfo: challengeInfoOf(req.ds, tag.index),
      shareMeta: { desc: `Watch videos with #${tag.title}`, title: `#${tag.title} on TikTok` },
      statusCode: 0,
      statusMsg: '',
    },
  });
};

export const homePage: Handler = (req) => page(req, 'TikTok - Make Your Day', {});
