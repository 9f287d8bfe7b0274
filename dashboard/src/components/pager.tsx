// "Previous" and "Next" under a paged table, with where the page stands in the whole list.
import { formatNumber } from "../lib/format.js";

interface PagerProps {
  /** Names the pages for assistive technology, e.g. "Pages of jobs". */
  readonly label: string;
  readonly offset: number;
  readonly pageSize: number;
  /** Items on the page shown now. */
  readonly shown: number;
  readonly total: number;
  readonly hasMore: boolean;
  readonly onOffset: (offset: number) => void;
}

export function Pager({ label, offset, pageSize, shown, total, hasMore, onOffset }: PagerProps) {
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
        Previous
      </button>
      <span>
        {formatNumber(offset + 1)}–{formatNumber(offset + shown)} of {formatNumber(total)}
      </span>
      <button type="button" disabled={!hasMore} onClick={() => onOffset(offset + pageSize)}>
        Next
      </button>
    </nav>
  );
}
