// The console panel's look, beside Redoc's: its font and sizes, a quiet bordered box, the site nav's
// navy for the action, Redoc's green for GET; everything wraps at a phone's width (375 px).
export const PANEL_CSS = `
.hr-try{box-sizing:border-box;margin:12px 0 24px;padding:16px;border:1px solid #d9dde5;border-radius:8px;background:#f8f9fb;font-size:14px;line-height:1.45;color:#1f2a44;max-width:100%;}
.hr-try *{box-sizing:border-box;}
.hr-try-head{display:flex;align-items:center;gap:8px;margin-bottom:12px;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere;}
.hr-try-method{font-weight:700;color:#1d8348;font-size:12px;}
.hr-try fieldset{border:0;border-top:1px solid #d9dde5;margin:12px 0 0;padding:8px 0 0;min-width:0;}
.hr-try legend{font-weight:600;padding:0 6px 0 0;}
.hr-try-field{display:flex;flex-direction:column;gap:4px;margin:8px 0;min-width:0;}
.hr-try-field label{font-weight:600;}
.hr-try-field small{color:#5d6678;}
.hr-try-required{color:#b3261e;font-weight:500;font-size:12px;}
.hr-try-in{color:#5d6678;font-weight:400;font-size:12px;}
.hr-try input,.hr-try select{font:inherit;width:100%;max-width:100%;padding:6px 8px;border:1px solid #b8bfcc;border-radius:4px;background:#fff;color:inherit;min-width:0;}
.hr-try input:focus-visible,.hr-try select:focus-visible,.hr-try button:focus-visible{outline:2px solid #3b62c4;outline-offset:1px;}
.hr-try-actions{margin:12px 0 0;}
.hr-try button{font:inherit;cursor:pointer;border-radius:4px;}
.hr-try-send{background:#1f2a44;color:#fff;border:1px solid #1f2a44;padding:7px 22px;font-weight:600;}
.hr-try-send:hover{background:#2f3d5f;}
.hr-try-send:disabled{opacity:.6;cursor:progress;}
.hr-try-answer{margin-top:14px;padding-top:10px;border-top:1px solid #d9dde5;}
.hr-try-status{margin:0 0 6px;font-weight:700;font-size:15px;}
.hr-try-ok{color:#1d8348;}
.hr-try-failed{color:#b3261e;}
.hr-try-error{color:#b3261e;margin:0;}
.hr-try-headers{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 12px;margin:0 0 8px;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;}
.hr-try-headers dt{color:#5d6678;}
.hr-try-headers dd{margin:0;overflow-wrap:anywhere;}
.hr-try pre{margin:0;padding:10px 12px;background:#1f2a44;color:#e8ecf4;border-radius:6px;font-size:12px;line-height:1.5;white-space:pre-wrap;overflow-wrap:anywhere;max-height:420px;overflow:auto;}
.hr-try pre.hr-try-body{white-space:pre;overflow-wrap:normal;}
.hr-try-samples{margin-top:14px;display:flex;flex-direction:column;gap:10px;}
.hr-try-sample-head{display:flex;align-items:center;gap:8px;margin-bottom:4px;font-weight:600;}
.hr-try-sample-head span:first-child{flex:1;min-width:0;}
.hr-try-copied{color:#1d8348;font-weight:400;font-size:12px;}
@media (max-width:600px){.hr-try{padding:12px 10px;}}
.hr-try-copy{background:#fff;border:1px solid #b8bfcc;padding:2px 10px;font-size:12px;}
`;
