import { createServer, type IncomingHttpHeaders } from "node:http";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { signIn } from "./auth.testing";
import { expectToast } from "./dashboard.testing";

// Webhooks (issue 56 item 4), in the `js` and `no-js` projects: the demo parent adds an endpoint pointing at a receiver
// this test starts on 127.0.0.1 (the e2e server has WEBHOOKS_ALLOW_PRIVATE=true), reads the secret shown once, sends a
// test event, and the receiver verifies its signature with standardwebhooks; the delivery log shows the 200.
test("add an endpoint, send a test event that the receiver verifies, see it in the delivery log, delete it", async ({ page }, info) => {
  const received: { body: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks/${info.project.name}`;
  try {
    await signIn(page);
    await page.locator("summary[aria-label='Open menu']").click();
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Webhooks", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();

    // Bad input: a clear message, nothing lost.
    await page.getByLabel("Endpoint address").fill(url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("Please choose at least one event.")).toBeVisible();
    await expect(page.getByLabel("Endpoint address")).toHaveValue(url);

    await page.getByRole("checkbox", { name: /^Requests:/ }).check();
    await page.getByRole("checkbox", { name: /^Commands acknowledged:/ }).check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = (await page.getByTestId("webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const item = page.getByRole("listitem", { name: url });
    await expect(item).toContainText("On");
    await expect(item).toContainText("No deliveries yet.");

    await item.getByRole("button", { name: `Send test event to ${url}` }).click();
    await expectToast(page, "success", "Test event sent.");
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const got = received[0]!;
    expect(() => new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
    expect(JSON.parse(got.body)).toMatchObject({ type: "webhook.test" });

    // The delivery log: the status code, the attempt, the state.
    await expect(async () => {
      await page.reload();
      const row = page.getByRole("listitem", { name: url }).getByRole("row").nth(1);
      await expect(row).toContainText("webhook.test", { timeout: 1_000 });
      await expect(row).toContainText("200", { timeout: 1_000 });
      await expect(row).toContainText("Delivered", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    // The secret is not shown again.
    await expect(page.getByText(secret)).toHaveCount(0);

    await page
      .getByRole("listitem", { name: url })
      .getByRole("button", { name: `Delete ${url}` })
      .click();
    await expectToast(page, "success", "The endpoint has been deleted.");
    await expect(page.getByRole("listitem", { name: url })).toHaveCount(0);
  } finally {
    await new Promise<void>((r) => server.close(() => r()));
  }
});
