// How the Chinese edition says what stands where a file belongs (lab/core/files.ts names it in English:
// "a FIFO", "a folder"). The CLI and `npm test` both say it.
import type { NotAFile } from "../core/files.js";

export const FILE_KINDS_ZH: Readonly<Record<NotAFile, string>> = {
  "a symbolic link": "是符号链接",
  "a folder": "是目录",
  "a FIFO": "是 FIFO（命名管道）",
  "a socket": "是套接字",
  "a device": "是设备文件",
};
