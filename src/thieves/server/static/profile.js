// The optional profile: a secret key kept in this browser (no password).
// It can be copied to another device and imported there.
"use strict";
(function () {
  const CONF = JSON.parse(document.getElementById("config").textContent);
  const T = CONF.ui;
  const $ = id => document.getElementById(id);
  const KEY = "thieves.profile";
  function stored() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function post(url, body) {
    return fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
      .then(r => r.json().then(j => { if (!r.ok) throw j; return j; }));
  }
  function fail(e) {
    $("profile-error").textContent = T.error + " — " + ((e && T["err_" + e.error]) || (e && e.message) || "");
    $("profile-error").hidden = false;
  }
  function show(me, key) {
    $("new").hidden = true; $("me").hidden = false;
    $("me-name").textContent = me.name;
    $("me-link").href = "/p/" + me.id;
    $("rename").value = me.name;
    $("key-out").value = key;
  }
  function load() {
    const key = stored();
    if (!key) { $("new").hidden = false; $("me").hidden = true; return; }
    post("/api/profiles/me", {key: key}).then(me => show(me, key)).catch(e => {
      $("new").hidden = false; fail(e);
    });
  }
  $("create-profile").addEventListener("click", () => {
    post("/api/profiles", {name: $("new-name").value}).then(p => {
      try { localStorage.setItem(KEY, p.key); } catch (e) { /* storage off */ }
      show(p, p.key);
    }).catch(fail);
  });
  $("import").addEventListener("click", () => {
    const key = $("key-in").value.trim();
    post("/api/profiles/me", {key: key}).then(me => {
      try { localStorage.setItem(KEY, key); } catch (e) { /* storage off */ }
      show(me, key);
    }).catch(fail);
  });
  $("rename-btn").addEventListener("click", () => {
    post("/api/profiles/me", {key: stored(), name: $("rename").value}).then(me => show(me, stored())).catch(fail);
  });
  $("forget").addEventListener("click", () => {
    try { localStorage.removeItem(KEY); } catch (e) { /* storage off */ }
    load();
  });
  load();
})();
