/** What each section of the bench measured (bench/results.json's `sections`): absent when not run. */
import type { KeylessResults } from './keyless';
import type { LiveResults } from './live';
import type { LoadedJs } from './loaded';
import type { MemoryResults } from './memory';
import type { PaintResults } from './paint';
import type { RelayResults } from './relay/report';
import type { RenderCostResults } from './relay/render-cost';
import type { SharingResults } from './sharing';
import type { SizeResults } from './size';
import type { TabsResults } from './tabs';
import type { VisitorResult } from './visitor';
import type { TickerLiveResults, WidgetSizes } from './widgets';

export interface Sections {
  size?: SizeResults;
  loaded?: LoadedJs;
  paint?: PaintResults;
  paintCors?: PaintResults;
  visitor?: VisitorResult[];
  keyless?: KeylessResults;
  live?: LiveResults;
  liveReduced?: LiveResults;
  liveColumns?: LiveResults;
  sharing?: SharingResults;
  tabs?: TabsResults;
  memory?: MemoryResults;
  widgetSizes?: WidgetSizes;
  tickerLive?: TickerLiveResults;
  relay?: RelayResults;
  /** The relay's render endpoint (DESIGN.md §13). */
  renderCost?: RenderCostResults;
}
