/**
 * A list page's "Download CSV": what its filters select, streamed a keyset page at a time, so
 * memory stays flat and the first byte does not wait for the last row, however many rows there are.
 */
import { type CsvValue, csvRecord } from "../core/csv";
import { CommandError } from "../core/errors";
import { log } from "../core/log";
import type { Page } from "../core/pagination";
import type { ResponseSet } from "./kit";
import { inWords } from "./words";

/** Rows read per query of an export. */
const EXPORT_BATCH = 1_000;

export interface CsvExport<T> {
  /** The file's name without ".csv", e.g. "policies-2026-11-25". */
  filename: string;
  columns: readonly string[];
  /** One keyset page of what the list's filters select (the list's own query). */
  page(limit: number, cursor?: string): Promise<Page<T>>;
  /** A page's rows as CSV values: one query for a page's names, never one per row. */
  rows(items: T[]): Promise<CsvValue[][]>;
}

export async function csvDownload<T>(spec: CsvExport<T>): Promise<Response> {
  const encoder = new TextEncoder();
  // The first page is read before anything is sent: a refused filter or a record not the viewer's
  // is answered with its status and words, never as a download cut short.
  let next: Page<T> | null = await spec.page(EXPORT_BATCH);
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // A byte-order mark so spreadsheets read UTF-8 (₦, names), and the header at once.
        controller.enqueue(encoder.encode(`\uFEFF${csvRecord(spec.columns)}`));
      },
      async pull(controller) {
        try {
          const page: Page<T> = next!;
          const rows = await spec.rows(page.items);
          if (rows.length) controller.enqueue(encoder.encode(rows.map(csvRecord).join("")));
          if (page.nextCursor) next = await spec.page(EXPORT_BATCH, page.nextCursor);
          else controller.close();
        } catch (error) {
          // The download fails visibly rather than ending as a file that looks complete.
          log.error("CSV export failed part-way", { filename: spec.filename, error: (error as Error).message });
          controller.error(error);
        }
      },
    },
    // One batch read ahead of the client at most.
    { highWaterMark: 1 },
  );
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${spec.filename}.csv"`,
      "cache-control": "no-store",
    },
  });
}

/**
 * A list's CSV answer: the download, or — a filter the list refuses, a record not the viewer's —
 * the refusal's status with its words, before any row is sent.
 */
export async function csvOrRefusal(set: ResponseSet, build: () => Response | Promise<Response>): Promise<Response | string> {
  try {
    return await build();
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    set.status = error.status;
    return inWords(error.message);
  }
}
