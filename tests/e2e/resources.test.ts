import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { minimalDocx, minimalPdf } from "../fixtures/files.ts";
import { checkConsoleScreen, confirmDialog, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";

// Help resources in the console (spec §2 Resources; decision 039): the super admin adds a video and a
// document, edits the document without choosing a new file, and archives the video; a member then
// finds the document to download and the video as a plain link (never an embedded player), with no
// way to change either. Checked with axe at 390 and 1440 px.

const suite = demoInBrowser();
const checkScreen = (page: Page, name: string) => checkConsoleScreen(page, "resources", name);
const section = (page: Page, name: "Videos" | "Documents") => page.getByRole("region", { name });
const row = (page: Page, name: "Videos" | "Documents", text: string) => section(page, name).locator("tbody tr", { hasText: text });
const notice = (page: Page, text: string) => page.getByText(text, { exact: true }).last().waitFor();

async function openResources(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Resources" }).click();
  await page.getByRole("heading", { name: "Resources", level: 1 }).waitFor();
}

describe("resources in the console", () => {
  test("the super admin adds a video and a document, edits the document keeping its file, and archives the video", async () => {
    const { browser, consoleOrigin } = suite;
    const { page, problems } = await newConsolePage(browser);
    await signInToConsole(page, consoleOrigin, "admin@lantern.test");
    await openResources(page);
    await section(page, "Videos").getByText("No videos found").waitFor();

    // A video: every field 'Required', and a javascript: address refused in place.
    await page.getByRole("button", { name: "Add Video" }).click();
    const videoDialog = page.getByRole("dialog", { name: "Add Video" });
    await videoDialog.getByRole("button", { name: "Save" }).click();
    expect(await videoDialog.getByText("Required", { exact: true }).count()).toBe(3);
    await videoDialog.getByLabel("Title").fill("Triage in five minutes");
    await videoDialog.getByLabel("Description").fill("How a new report is assigned and tagged.");
    await videoDialog.getByLabel("Video URL").fill("javascript:alert(document.cookie)");
    await videoDialog.getByRole("button", { name: "Save" }).click();
    await videoDialog.getByText("Video URL must be a web address starting with http:// or https://").waitFor();
    await checkScreen(page, "add-video-modal");
    await videoDialog.getByLabel("Video URL").fill("https://videos.example.com/triage");
    await videoDialog.getByRole("button", { name: "Save" }).click();
    await videoDialog.waitFor({ state: "detached" });
    await notice(page, "Successfully created video");
    await row(page, "Videos", "Triage in five minutes").waitFor();

    // A document: the file is required when adding; a disguised file is refused by the server.
    await page.getByRole("button", { name: "Add Document" }).click();
    const documentDialog = page.getByRole("dialog", { name: "Add Document" });
    await documentDialog.getByLabel("Title").fill("Investigation checklist");
    await documentDialog.getByLabel("Description").fill("Steps for every substantiated report.");
    await documentDialog.getByRole("button", { name: "Save" }).click();
    await documentDialog.getByText("Required", { exact: true }).waitFor();
    await documentDialog.getByLabel("File").setInputFiles({ name: "checklist.pdf", mimeType: "application/pdf", buffer: Buffer.from(minimalDocx()) });
    await documentDialog.getByRole("button", { name: "Save" }).click();
    await documentDialog.getByText("The file's content does not match its type.").first().waitFor();
    await documentDialog.getByLabel("File").setInputFiles({ name: "checklist.pdf", mimeType: "application/pdf", buffer: Buffer.from(minimalPdf()) });
    await documentDialog.getByRole("button", { name: "Save" }).click();
    await documentDialog.waitFor({ state: "detached" });
    await notice(page, "Successfully created document");
    await row(page, "Documents", "Investigation checklist").getByText("checklist.pdf").waitFor();

    // Edit the document without a new file: the title changes, the file stays.
    await row(page, "Documents", "Investigation checklist").getByRole("button", { name: "Edit" }).click();
    const editDialog = page.getByRole("dialog", { name: "Edit Document" });
    await editDialog.getByText("Current file: checklist.pdf").waitFor();
    await editDialog.getByLabel("Title").fill("Investigation checklist 2026");
    await editDialog.getByRole("button", { name: "Save" }).click();
    await editDialog.waitFor({ state: "detached" });
    await notice(page, "Successfully updated document");
    await row(page, "Documents", "Investigation checklist 2026").getByText("checklist.pdf").waitFor();
    await checkScreen(page, "resources-manager");

    // Archive the video: gone from the active list, there under Archived.
    await row(page, "Videos", "Triage in five minutes").getByRole("button", { name: "Archive" }).click();
    await confirmDialog(page, "Are you sure you want to archive this video?");
    await notice(page, "Successfully archived video");
    await section(page, "Videos").getByText("No videos found").waitFor();
    await page.getByLabel("Filter").selectOption("Archived");
    await row(page, "Videos", "Triage in five minutes").getByText("Archived").waitFor();
    await page.getByLabel("Filter").selectOption("Active");

    // A second video, active, for the member to see.
    await page.getByRole("button", { name: "Add Video" }).click();
    const another = page.getByRole("dialog", { name: "Add Video" });
    await another.getByLabel("Title").fill("Talking with reporters");
    await another.getByLabel("Description").fill("Keeping a reporter anonymous in chat.");
    await another.getByLabel("Video URL").fill("https://videos.example.com/chat");
    await another.getByRole("button", { name: "Save" }).click();
    await another.waitFor({ state: "detached" });
    await row(page, "Videos", "Talking with reporters").waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("at 390 px the super admin's lists read as cards and the document modal fits", async () => {
    const { browser, consoleOrigin } = suite;
    const { page, problems } = await newConsolePage(browser, 390);
    await signInToConsole(page, consoleOrigin, "admin@lantern.test");
    await page.goto(`${consoleOrigin}/admin/resources`);
    await row(page, "Documents", "Investigation checklist 2026").getByRole("button", { name: "Edit" }).waitFor();
    await checkScreen(page, "resources-manager");
    await row(page, "Documents", "Investigation checklist 2026").getByRole("button", { name: "Edit" }).click();
    await page.getByRole("dialog", { name: "Edit Document" }).getByText("Current file: checklist.pdf").waitFor();
    await checkScreen(page, "edit-document-modal");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  for (const width of [1440, 390]) {
    test(`at ${width} px a member downloads the document and follows the video link, with nothing to manage`, async () => {
      const { browser, consoleOrigin } = suite;
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "member@demo.test");
      if (width < 1367) await page.getByRole("button", { name: "Open menu" }).click();
      await openResources(page);
      const video = row(page, "Videos", "Talking with reporters");
      const link = video.getByRole("link", { name: /Watch video/ });
      expect(await link.getAttribute("href")).toBe("https://videos.example.com/chat");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await page.locator("iframe, video, embed, object").count()).toBe(0);
      // The archived video is not there for a member, and neither are the filter or any manage control.
      expect(await section(page, "Videos").getByText("Triage in five minutes").count()).toBe(0);
      expect(await page.getByLabel("Filter").count()).toBe(0);
      for (const name of ["Add Video", "Add Document", "Edit", "Archive"]) expect(await page.getByRole("button", { name }).count()).toBe(0);

      const download = page.waitForEvent("download");
      await row(page, "Documents", "Investigation checklist 2026").getByRole("link", { name: /Download/ }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("checklist.pdf");
      expect(new Uint8Array(await Bun.file((await file.path())!).arrayBuffer())).toEqual(minimalPdf());
      await checkScreen(page, "resources-member");
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});
