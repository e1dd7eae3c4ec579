/**
 * The hosted chat page's own rules (added to the shared ones of html.ts). The page fills its
 * frame: the header with the loan and the user stays at the top, the composer at the bottom,
 * and only the messages scroll between them; nothing is wider than the frame, however narrow
 * (a long link, a code block or a table scrolls inside its answer, never the page sideways).
 */
export const CHAT_STYLES = `
  html, body { height: 100%; }
  body > main { display: flex; flex-direction: column; height: 100%; box-sizing: border-box; }
  main > * { flex-shrink: 0; }
  #chat { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
  #chat > * { flex-shrink: 0; }
  #messages { flex: 1 1 auto; min-height: 0; overflow-y: auto; overflow-x: hidden; overflow-anchor: none; display: flex; flex-direction: column; gap: 10px; margin: 12px 0; }
  .msg { min-width: 0; padding: 10px 12px; border-radius: 8px; background: white; border: 1px solid #dde2ea; overflow-wrap: anywhere; }
  .msg.user { background: #e8f0fd; border-color: #c6d8f6; white-space: pre-wrap; }
  .msg .text > :first-child { margin-top: 0; } .msg .text > :last-child { margin-bottom: 0; }
  .msg .text p, .msg .text ul, .msg .text ol, .msg .text pre, .msg .text table, .msg .text blockquote { margin: 0 0 8px; }
  .msg .text ul, .msg .text ol { padding-left: 22px; }
  .msg .text h1, .msg .text h2, .msg .text h3, .msg .text h4 { font-size: 15px; margin: 10px 0 6px; }
  .msg code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f1f3f6; border-radius: 4px; padding: 0 3px; }
  .msg pre { max-width: 100%; overflow-x: auto; background: #f1f3f6; border-radius: 6px; padding: 8px; }
  .msg pre code { padding: 0; overflow-wrap: normal; }
  .msg table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; }
  .msg th, .msg td { border: 1px solid #dde2ea; padding: 4px 8px; text-align: left; overflow-wrap: normal; }
  .msg blockquote { border-left: 3px solid #dde2ea; padding-left: 10px; color: #39424f; }
  #composer { display: flex; gap: 8px; align-items: flex-end; }
  #composer textarea { flex: 1; min-width: 0; min-height: 44px; max-height: 30vh; resize: vertical; box-sizing: border-box; }
  #chat > p { margin: 6px 0 0; }
  button.secondary, .answer-actions button { background: white; color: #1f5fbf; padding: 4px 10px; font-size: 13px; }
  .chat-context { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 4px 16px; margin: 0 0 12px; padding: 8px 12px; background: white; border: 1px solid #dde2ea; border-radius: 8px; }
  .chat-context dl { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 0; } .chat-context dl div { display: flex; gap: 4px; }
  .chat-context dt { color: #5b6575; } .chat-context dd { margin: 0; font-weight: 600; } .chat-context p { margin: 0; }
  .chat-context .who { display: flex; align-items: center; gap: 10px; }
  .msg .cite { font-weight: 600; text-decoration: none; }
  .answer-actions { display: flex; gap: 8px; margin-top: 8px; }
  .msg .sources { margin-top: 10px; padding-top: 8px; border-top: 1px solid #dde2ea; font-size: 13px; }
  .msg .sources summary { cursor: pointer; font-weight: 600; }
  .msg .sources ol { margin: 6px 0 0; padding-left: 20px; display: grid; gap: 6px; }
  .msg .sources li:focus { outline: 2px solid #1f5fbf; outline-offset: 2px; } .msg .sources blockquote { margin: 2px 0 0; color: #39424f; }
  .msg .failure, .msg .stopped { margin: 8px 0 0; } .msg .failure button { margin-left: 8px; padding: 4px 10px; }
`;
