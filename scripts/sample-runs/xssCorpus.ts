// A corpus of script-injection payloads for the webview tests: every one, if it ever executed, would set
// `window.__xss` (or call parent.postMessage with "xss"). They are put where agents and tools write text
// (messages, reasoning, tool names / arguments / ids, observations, extra, image paths) and the test proves none runs.
const ACTION = 'window.__xss=(window.__xss||0)+1';

const VECTORS = [
  `<script>${ACTION}</script>`,
  `<img src=x onerror="${ACTION}">`,
  `<img src="javascript:${ACTION}">`,
  `<svg onload="${ACTION}">`,
  `<svg><script>${ACTION}</script></svg>`,
  `<iframe src="javascript:${ACTION}"></iframe>`,
  `<iframe srcdoc="<script>parent.${ACTION}</script>"></iframe>`,
  `<body onload="${ACTION}">`,
  `<details open ontoggle="${ACTION}">`,
  `<video><source onerror="${ACTION}"></video>`,
  `<audio src=x onerror="${ACTION}">`,
  `<input autofocus onfocus="${ACTION}">`,
  `<marquee onstart="${ACTION}">x</marquee>`,
  `<a href="javascript:${ACTION}">click</a>`,
  `<object data="javascript:${ACTION}"></object>`,
  `<embed src="javascript:${ACTION}">`,
  `<math><mtext><script>${ACTION}</script></mtext></math>`,
  `<style>@import 'javascript:${ACTION}';</style>`,
  `<link rel=stylesheet href="javascript:${ACTION}">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${ACTION}">`,
  `<form action="javascript:${ACTION}"><button>x</button></form>`,
  `<div style="background:url(javascript:${ACTION})">`,
  `"><script>${ACTION}</script>`,
  `'><img src=x onerror=${ACTION}>`,
  `</textarea><script>${ACTION}</script>`,
  `</title><script>${ACTION}</script>`,
  `<scr<script>ipt>${ACTION}</scr</script>ipt>`,
  `<SCRIPT SRC=data:text/javascript,${ACTION}></SCRIPT>`,
  `<img src=x oNeRrOr=${ACTION}>`,
  `<img/src=x/onerror=${ACTION}>`,
  `<svg><animate onbegin="${ACTION}" attributeName=x dur=1s>`,
  `<template><img src=x onerror="${ACTION}"></template>`,
  `<noscript><p title="</noscript><img src=x onerror=${ACTION}>">`,
  `<vscode-button onclick="${ACTION}">x</vscode-button>`,
  `javascript:${ACTION}`,
  `data:text/html,<script>${ACTION}</script>`,
  `\${${ACTION}}`,
  `{{constructor.constructor('${ACTION}')()}}`,
  `<img src=x onerror=&#119;indow.__xss=1>`,
  `&lt;script&gt;${ACTION}&lt;/script&gt;`,
];

const WRAPPERS: ((v: string) => string)[] = [
  (v) => v,
  (v) => `Output:\n${v}\n(done)`,
  (v) => `\`\`\`html\n${v}\n\`\`\``,
];

/** 120 payloads: each vector bare, inside terminal-like output, and inside a Markdown code fence. */
export const XSS_PAYLOADS: readonly string[] = WRAPPERS.flatMap((w) => VECTORS.map(w));
