// Address autocomplete for To, Cc and Bcc: the contact suggestions of the datalist keep the
// addresses already typed in the field, so picking one appends instead of replacing.
(function () {
  const list = document.getElementById("contact-addresses");
  if (!list) return;
  const contacts = Array.from(list.options).map((option) => ({
    email: option.value,
    name: option.label,
  }));
  function suggest(field) {
    const parts = field.value.split(/[,;]/);
    const typed = parts.pop().trim().toLowerCase();
    const kept = parts.map((part) => part.trim()).filter(Boolean);
    const prefix = kept.length ? kept.join(", ") + ", " : "";
    list.replaceChildren();
    for (const contact of contacts) {
      if (kept.includes(contact.email)) continue;
      if (typed && !(contact.email + " " + contact.name).toLowerCase().includes(typed)) continue;
      const option = document.createElement("option");
      option.value = prefix + contact.email;
      option.label = contact.name;
      list.append(option);
    }
  }
  for (const field of document.querySelectorAll("[data-address-field]")) {
    field.addEventListener("input", () => suggest(field));
    field.addEventListener("focus", () => suggest(field));
  }
})();
