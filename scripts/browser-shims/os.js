// os: what Prism's spec reader puts in its User-Agent.
export const type = () => "Browser";
export const arch = () => "js";
export const release = () => "";
export const platform = () => "browser";
export const EOL = "\n";
export default { type, arch, release, platform, EOL };
