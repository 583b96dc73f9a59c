// "Copy link" for the Share panel (inspector/ui/share.py): a visible button that puts the link
// on the clipboard and says so. The link is the app's own address plus a token; it enters the
// page as a text value only.

export default function (component) {
  const { data, parentElement } = component;
  if (!data || !parentElement) return;
  const old = parentElement.querySelector(".copy-row");
  if (old) old.remove();
  const row = document.createElement("div");
  row.className = "copy-row";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy-btn";
  button.textContent = "Copy link";
  const said = document.createElement("span");
  said.className = "copy-said";
  said.setAttribute("role", "status");
  const url = String(data.url || "");

  function fallback() {
    // Without the Clipboard API (a plain-http address that is not localhost): select and copy.
    const box = document.createElement("textarea");
    box.value = url;
    box.setAttribute("readonly", "");
    box.style.position = "fixed";
    box.style.opacity = "0";
    parentElement.appendChild(box);
    box.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    box.remove();
    return ok;
  }

  button.onclick = async () => {
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(url); ok = true; }
      else ok = fallback();
    } catch (e) {
      ok = fallback();
    }
    said.textContent = ok ? "Copied" : "Could not copy: select the link above and copy it";
  };
  row.appendChild(button);
  row.appendChild(said);
  parentElement.appendChild(row);
}
