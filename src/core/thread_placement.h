// Where a new worker thread starts. Linux puts a new thread on its creator's CPU and lets
// load balancing move it later, so the two lanes of a streamed run were measured taking
// turns on one core for up to 20 ms of a 50 ms run while another sat idle (perf sched
// timehist; docs/perf.md, "Thread placement", where the machine is named). A worker
// therefore moves itself, once, to an allowed CPU other than its creator's, and is then
// free to go anywhere again: a placement, not a pin, so other processes and cpusets are
// respected.
#pragma once

namespace onnxrun {

// The CPU the calling thread runs on now, or -1 when unknown. Read by the creator before
// it starts its workers.
int current_cpu();

// Called first thing by the k-th worker (k >= 1) its creator started from `creator_cpu`:
// moves it to the k-th allowed CPU other than creator_cpu (cycling), then restores its
// allowed set. Does nothing when creator_cpu is -1 or no other CPU is allowed.
void start_away_from(int creator_cpu, unsigned k);

}  // namespace onnxrun
