import { describe, expect, test } from "bun:test";
import { inWords } from "../../src/portal/words";
import { PNG_BASE64, testApp } from "../support/harness";
import { signedIn } from "./browser";

const t = await testApp();

const person = (overrides: Record<string, string> = {}) => ({
  class: "h",
  "name.first": "Ngozi",
  "name.last": "Eze",
  gender: "f",
  "dob.date": "1988-02-14",
  phoneNo: "+2348031112222",
  eMail: `ngozi.${crypto.randomUUID().slice(0, 6)}@example.ng`,
  "addrss.addrss": "4 Awolowo Road, Ikoyi, Lagos",
  ...overrides,
});

describe("consumer pages", () => {
  test("register an individual: the detail page shows them, the list and the search find them", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/consumers/new");
    const created = await b.post("/portal/consumers", person({ "name.first": "Chiamaka" }));
    expect(created.status).toBe(303);
    const detail = await b.get(created.location!);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain("Chiamaka Eze");
    // Codes in words: gender "f" is Female.
    expect(detail.text).toContain("<dd>Female</dd>");
    expect(detail.text).toContain("<dd>14 Feb 1988</dd>");
    expect(detail.text).not.toContain("<dd>f</dd>");
    const id = created.location!.split("/").at(-1)!;
    expect(id).toMatch(/^[0-9a-f]{32}$/); // the id the JSON surface uses
    const listed = await p.run("dump entt_*CSTMRS");
    expect(listed.list[0].id).toBe(id);
    expect((await b.get("/portal/consumers")).text).toContain("Chiamaka Eze");
    const found = await b.get("/portal/consumers?rows=1&q=chiam", { "hx-request": "true" });
    expect(found.text).toContain("Chiamaka Eze");
    expect(found.text).not.toContain("<html");
    const none = await b.get("/portal/consumers?rows=1&q=zzzz", { "hx-request": "true" });
    expect(none.text).not.toContain("Chiamaka");
  });

  test("a refusal is shown next to its field with the JSON surface's words, and nothing typed is lost", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/consumers/new");
    const refused = await b.post("/portal/consumers", person({ phoneNo: "0803111", "name.first": "Tunde" }));
    expect(refused.status).toBe(400);
    const json = await p.run("prfl entity", { class: "h", name: { first: "Tunde" }, phoneNo: "0803111" });
    expect(refused.text).toContain(`id="f-phoneNo-error"`);
    expect(refused.text).toContain(inWords(json.exctnFdbck.elbrtn).replaceAll('"', "&quot;"));
    expect(refused.text).toContain('value="Tunde"');
    expect((await p.run("dump entt_*CSTMRS")).list).toHaveLength(0);
  });

  test("every refused field at once, each beside its input, in people's words", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/consumers/new");
    const refused = await b.post("/portal/consumers", person({ phoneNo: "12", eMail: "nope", "dob.date": "1990-13-01" }));
    expect(refused.status).toBe(400);
    for (const [input, words] of [
      ["dob.date", "Date of birth is not a real calendar date"],
      ["phoneNo", "Phone number must be a Nigerian number such as 0803 123 4567, or start with + and the country code"],
      ["eMail", "E-mail must be a valid e-mail address"],
    ])
      expect(refused.text).toContain(`<p id="f-${input!.replace(".", "-")}-error" class="error">${words}</p>`);
    expect((await p.run("dump entt_*CSTMRS")).list).toHaveLength(0);
  });

  test("phone numbers as people type them: 0803 111 2222, 08031112222 and 234… are stored as +234…", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/consumers/new");
    for (const typed of ["0803 111 2222", "08031112222", "234-803-111-2222", "(0803) 111 2222"]) {
      const created = await b.post("/portal/consumers", person({ phoneNo: typed }));
      expect(created.status).toBe(303);
      const id = created.location!.split("/").at(-1)!;
      const listed = (await p.run("dump entt_*CSTMRS")).list.find((c: { id: string }) => c.id === id);
      expect(JSON.stringify(listed)).toContain('"+2348031112222"');
    }
    expect((await b.get("/portal/consumers/new")).text).toContain('type="tel"');
  });

  test("documents are uploaded as files and sniffed like the JSON surface's base64", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/consumers/new");
    const png = new Blob([Buffer.from(PNG_BASE64, "base64")], { type: "image/png" });
    const created = await b.post("/portal/consumers", { ...person(), "socialID.type": "nidd", "socialID.id": "12345678901", "socialID.image": png });
    expect(created.status).toBe(303);
    expect((await b.get(created.location!)).text).toContain("socialID.image");
    const text = new Blob(["not an image"], { type: "image/png" });
    const refused = await b.post("/portal/consumers", { ...person(), "socialID.image": text });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(`id="f-socialID-image-error"`);
    expect(refused.text).toContain("must be a JPEG, PNG, WebP image or a PDF document");
  });

  test("an organisation gets its own form; an update by e-mail changes the same consumer", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    const orgForm = await b.get("/portal/consumers/new?class=o", { "hx-request": "true" });
    expect(orgForm.text).toContain("Organisation name");
    expect(orgForm.text).not.toContain("First name");
    const email = `ops.${crypto.randomUUID().slice(0, 6)}@kola.ng`;
    const created = await b.post("/portal/consumers", { class: "o", "name.brand": "Kola Stores Ltd", eMail: email, phoneNo: "+2348035556666" });
    expect(created.status).toBe(303);
    const id = created.location!.split("/").at(-1)!;
    const edit = await b.get(`/portal/consumers/${id}/edit`);
    expect(edit.text).toContain("Kola Stores Ltd");
    const updated = await b.post("/portal/consumers", { class: "o", eMail: email, updating: id, rc: "RC123456" });
    expect(updated.location).toBe(`/portal/consumers/${id}`);
    expect((await b.get(`/portal/consumers/${id}`)).text).toContain("RC123456");
  });

  test("another partner's consumer is not found", async () => {
    const owner = await t.partner();
    const other = await t.partner();
    const { id } = await owner.run("prfl entity", { class: "h", name: { first: "Private" }, phoneNo: "+2348031112233" });
    const b = await signedIn(t, other.portal);
    const page = await b.get(`/portal/consumers/${id}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain("Private");
    expect((await b.get("/portal/consumers")).text).not.toContain("Private");
  });

  // Found by the fuzzer (test/fuzz/portal.test.ts): each of these answered HTTP 500 before.
  test("text that can never be stored (a NUL) is refused with a 400 page and nothing is stored", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    const answer = await b.post("/portal/consumers", person({ "name.first": "Ada\u0000" }));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain("The form field First name contains a NUL character");
    expect((await p.run("dump entt_*CSTMRS")).list).toHaveLength(0);
    // In a search, a path or a JSON body alike.
    expect((await b.get("/portal/consumers?q=%00")).status).toBe(400);
    expect((await b.get("/portal/consumers/%00")).status).toBe(400);
    const json = await t.app.handle(
      new Request("http://localhost/portal/consumers", {
        method: "POST",
        headers: { "content-type": "application/json", cookie: `session=${b.cookie("session")}`, "x-csrf-token": b.csrf },
        body: JSON.stringify({ class: "h", "name.first": "Ada\ud800", phoneNo: "+2348031234567" }),
      }),
    );
    expect(json.status).toBe(400);
    expect(await json.text()).toContain("unpaired UTF-16 surrogate");
  });

  test("a body that cannot be read (broken JSON, broken multipart) is a 400 page, and an unreadable list cursor a 400", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    for (const [type, body] of [
      ["application/json", "{broken"],
      ["multipart/form-data; boundary=b", "--b\r\nbroken"],
      ["multipart/form-data", "no boundary at all"],
    ]) {
      const response = await t.app.handle(
        new Request("http://localhost/portal/consumers", {
          method: "POST",
          headers: { "content-type": type!, cookie: `session=${b.cookie("session")}`, "x-csrf-token": b.csrf },
          body,
        }),
      );
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("The request could not be read");
    }
    const listed = await b.get("/portal/consumers?cursor=not-a-cursor");
    expect(listed.status).toBe(400);
    expect(listed.text).toContain(inWords("seed.cursor is not a cursor this service returned"));
  });
});
