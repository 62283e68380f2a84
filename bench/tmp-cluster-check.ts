import { runRelayCluster } from '/work/main/bench/relay/cluster';
const r = await runRelayCluster((s) => console.log(s), 300, 5);
console.log(JSON.stringify(r, null, 1));
process.exit(0);
