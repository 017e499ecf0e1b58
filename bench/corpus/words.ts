/** Vocabulary of the synthetic corpus: enough distinct terms that BM25 and grep have real work to do. */
export const NOUNS = (
  'account adapter agent alert archive array backup balance batch buffer build bundle cache cluster column ' +
  'config connection consumer context contract cursor dashboard database deadline deployment device digest ' +
  'document domain driver endpoint engine entity event exporter feature field filter folder gateway graph ' +
  'handler header histogram identity index invoice job journal kernel key ledger limit listener loader lock ' +
  'manifest mapper message metric migration model module monitor network node notification offset order ' +
  'package parser partition payload pipeline plugin policy pool port printer process profile project proxy ' +
  'queue quota record region registry release replica report request resource response retry role route ' +
  'runner schema scheduler scope segment sensor server service session shard signal snapshot socket source ' +
  'storage stream subscriber summary table task template tenant thread ticket timer token topic tracker ' +
  'transaction transport trigger upload user validator vault version volume warehouse webhook widget worker'
).split(' ');

export const VERBS = (
  'accept aggregate allocate apply archive assign authorize balance batch build cache cancel capture check ' +
  'clean collect commit compact compress compute configure connect convert copy create decode defer delete ' +
  'deliver detect dispatch drain emit enable encode enqueue evaluate expire export fetch filter flush format ' +
  'forward freeze generate group handle hash import index inspect invalidate join launch limit list load lock ' +
  'log map merge migrate monitor normalize notify open parse patch pause persist poll prepare prune publish ' +
  'purge queue read rebuild reconcile record refresh register reject release reload render replay report ' +
  'request reset resolve restore resume retry rotate route run sample save scan schedule search seed select ' +
  'send serialize shard sign snapshot sort split start stop store stream submit sync throttle trace track ' +
  'transform trim unlock update upload validate verify watch write'
).split(' ');

export const ADJECTIVES = (
  'active async atomic background binary bounded cached canonical clean cold compact concurrent consistent ' +
  'critical current default deferred dirty distributed durable dynamic empty encrypted expired external ' +
  'fast final global graceful hidden idle immutable incremental initial internal large lazy legacy local ' +
  'manual missing nested offline optional orphan partial pending persistent primary private public raw ' +
  'readonly recent remote required resilient retired secondary secure shared silent slow sparse stale static ' +
  'strict temporary transient trusted unique unsafe valid verbose virtual warm weighted'
).split(' ');

export const TOPICS = (
  'authentication billing caching deployment indexing ingestion logging messaging monitoring onboarding ' +
  'payments permissions reporting scheduling search security storage streaming synchronization telemetry'
).split(' ');
