// recording_bench: the recorder's budgets (docs/PERFORMANCE.md), measured in one run.
//
//   recording_bench [--skip-micro] [--runs N] [--fib N] [--memory FIB_N] [benchmark flags]
//
// 1. Micro (Google Benchmark): rdtsc, CLOCK_MONOTONIC, the record() hot path alone (chunk reused,
//    never written), and the real OMPT callbacks of libtasklens (task_schedule, task_create) with
//    the writer thread encoding and writing everything: the sustained cost. Ratio to rdtsc printed.
//    The read of the perf_event counters that `--counters` adds at every task switch.
// 2. End to end: bench/programs/fib N (default 30, no cut-off) with one thread, interleaved runs
//    with the empty OMPT tool and with the recorder (OMP_TOOL_LIBRARIES, as `tasklens run` sets
//    it); (median recorder - median empty tool) / events recorded = cost per event in the program.
// 3. Trace size: bytes per event on disk for fib, nqueens, dep_chain and wavefront (2 threads).
// 4. With --memory N: peak RSS of fib N (one thread, >= 10^8 events for N >= 35) under the
//    recorder, next to the uninstrumented peak RSS and the pool size.
#include <benchmark/benchmark.h>
#include <omp-tools.h>
#include <unistd.h>
#include <x86intrin.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/recording/bench_process.h"
#include "format/chunk_builder.h"
#include "format/event.h"
#include "recorder/session.h"
#include "recorder/task_counters.h"
#include "recorder/thread_buffer.h"

extern "C" ompt_start_tool_result_t* ompt_start_tool(unsigned int, const char*);

namespace tasklens::bench {
namespace {

namespace fs = std::filesystem;
using format::Kind;

std::string scratch(const std::string& name) {
  std::string dir =
      fs::temp_directory_path() / ("tasklens-bench-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(fs::path(dir).parent_path());
  return dir;
}

// ---- 1. micro -------------------------------------------------------------------------------

void BM_Rdtsc(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(__rdtsc());
}
BENCHMARK(BM_Rdtsc);

void BM_ClockMonotonic(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(recorder::monotonic_ns());
}
BENCHMARK(BM_ClockMonotonic);

// record() exactly as the callbacks inline it, into one chunk that is reused when full: the
// stores and the clock read, without the pool or the writer.
void BM_RecordHotPath(benchmark::State& state) {
  // The clock the recorder would choose (before start-up the recorder's default is monotonic).
  recorder::g_clock_source = recorder::tsc_is_invariant() ? recorder::ClockSource::kTsc
                                                          : recorder::ClockSource::kMonotonic;
  static recorder::Chunk chunk;
  recorder::ThreadBuffer tb;
  tb.cur = chunk.events;
  tb.end = chunk.events + recorder::kChunkEvents;
  uint64_t id = format::make_id(0, 1);
  for (auto _ : state) {
    if (tb.cur == tb.end) tb.cur = chunk.events;
    recorder::record(&tb, Kind::kTaskSchedule, 7, 0, 0, id, id + 1, 0);
    ++id;
  }
  benchmark::DoNotOptimize(chunk.events[0]);
}
BENCHMARK(BM_RecordHotPath);

// The writer's share: encoding a full chunk of fib-like events (create, switch in, complete) and
// its checksum, per event.
// The read `--counters` adds at every task switch (task_counters.h): argument 0 reads page-faults
// alone (one group, one read(2)), 1 task-clock alone, 2 both (two reads: they are never grouped).
void BM_CounterRead(benchmark::State& state) {
  const char* lists[] = {"page-faults", "task-clock", "page-faults,task-clock"};
  if (recorder::prof::setup_counters(lists[state.range(0)], true) == 0) {
    state.SkipWithError("perf_event_open refused (perf_event_paranoid?)");
    return;
  }
  recorder::prof::ThreadCounters fds = recorder::prof::open_thread_counters();
  uint64_t v[format::kMaxCounters];
  for (auto _ : state) benchmark::DoNotOptimize(recorder::prof::read_counters(fds, v));
  state.SetLabel(lists[state.range(0)]);
  for (int fd : {fds.clock, fds.group}) {
    if (fd >= 0) close(fd);
  }
  recorder::prof::setup_counters(nullptr, true);
}
BENCHMARK(BM_CounterRead)->Arg(0)->Arg(1)->Arg(2);

void BM_EncodeChunk(benchmark::State& state) {
  std::vector<format::Event> events;
  uint64_t t = 1000000, parent = format::make_id(0, 3);
  for (uint64_t i = 0; events.size() < recorder::kChunkEvents; ++i) {
    uint64_t task = format::make_id(0, 4 + i);
    events.push_back(
        {t += 40, Kind::kTaskCreate, 0, 0, 4, task, parent, 0x55d0c0de1000 + i % 2 * 64});
    events.push_back({t += 60, Kind::kTaskSchedule, 7, 0, 0, parent, task, 0});
    events.push_back({t += 90, Kind::kTaskSchedule, 1, 0, 0, task, parent, 0});
  }
  events.resize(recorder::kChunkEvents);
  std::vector<uint8_t> out(format::max_chunk_bytes(events.size()));
  format::ChunkInfo info;
  for (auto _ : state) {
    benchmark::DoNotOptimize(format::build_chunk(events.data(), events.size(), info, out.data()));
  }
  state.SetItemsProcessed(int64_t(state.iterations() * events.size()));
  state.counters["ns_per_event"] =
      benchmark::Counter(double(state.iterations() * events.size()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EncodeChunk);

// The callbacks libtasklens registers, obtained through its own ompt_start_tool/initialize with a
// stand-in runtime that hands out set_callback.
std::map<int, ompt_callback_t> g_callbacks;

int fake_set_callback(ompt_callbacks_t which, ompt_callback_t fn) {
  g_callbacks[which] = fn;
  return ompt_set_always;
}

ompt_interface_fn_t fake_lookup(const char* name) {
  if (std::strcmp(name, "ompt_set_callback") == 0) {
    return reinterpret_cast<ompt_interface_fn_t>(&fake_set_callback);
  }
  return nullptr;
}

bool start_recorder() {
  static bool started = [] {
    setenv("TASKLENS_OUTPUT", scratch("micro").c_str(), 1);
    setenv("TASKLENS_QUIET", "1", 1);
    ompt_start_tool_result_t* r = ompt_start_tool(201611, "recording_bench");
    return r && r->initialize(&fake_lookup, 0, &r->tool_data) == 1;
  }();
  return started;
}

void BM_TaskScheduleCallback(benchmark::State& state) {
  if (!start_recorder()) return state.SkipWithError("the recorder did not start");
  auto fn =
      reinterpret_cast<ompt_callback_task_schedule_t>(g_callbacks[ompt_callback_task_schedule]);
  ompt_data_t a{}, b{};
  a.value = format::make_id(0, 1);
  b.value = format::make_id(0, 2);
  for (auto _ : state) fn(&a, ompt_task_switch, &b);
}
BENCHMARK(BM_TaskScheduleCallback);

void BM_TaskCreateCallback(benchmark::State& state) {
  if (!start_recorder()) return state.SkipWithError("the recorder did not start");
  auto fn = reinterpret_cast<ompt_callback_task_create_t>(g_callbacks[ompt_callback_task_create]);
  ompt_data_t parent{}, child{};
  parent.value = format::make_id(0, 1);
  static const char code = 0;
  for (auto _ : state) fn(&parent, nullptr, &child, ompt_task_explicit, 0, &code);
}
BENCHMARK(BM_TaskCreateCallback);

// Keeps ns per iteration of every benchmark run, besides printing them.
class Collecting : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> ns;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.iterations > 0) ns[r.benchmark_name()] = r.GetAdjustedCPUTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

// ---- 2. end to end --------------------------------------------------------------------------

std::string example(const std::string& name) {
  return std::string(TASKLENS_EXAMPLES_DIR) + "/" + name;
}
// bench/programs/fib: examples/fib also records a user parameter per call (the user API).
std::string plain_fib() {
  return std::string(TASKLENS_BENCH_PROGRAMS_DIR) + "/fib";
}

nlohmann::json read_meta(const std::string& dir) {
  std::ifstream in(dir + "/experiment.json");
  return nlohmann::json::parse(in, nullptr, false);
}

double end_to_end(int fib_n, int runs, double rdtsc_ns) {
  std::vector<std::string> argv = {plain_fib(), std::to_string(fib_n)};
  std::vector<double> plain, empty, recorded, empty_cpu, recorded_cpu, writer_cpu;
  uint64_t events = 0;
  std::printf("\nEnd to end: %s %d, 1 thread, %d interleaved runs of each\n", argv[0].c_str(),
              fib_n, runs);
  for (int i = 0; i < runs; ++i) {
    plain.push_back(run_process(argv, {"OMP_NUM_THREADS=1"}).seconds);
    ProcessRun e =
        run_process(argv, {"OMP_NUM_THREADS=1", "OMP_TOOL_LIBRARIES=" TASKLENS_EMPTY_TOOL});
    empty.push_back(e.seconds);
    empty_cpu.push_back(e.cpu_seconds);
    std::string dir = scratch("e2e");
    ProcessRun r =
        run_process(argv, {"OMP_NUM_THREADS=1", "OMP_TOOL_LIBRARIES=" TASKLENS_RECORDER_LIBRARY,
                           "TASKLENS_OUTPUT=" + dir});
    recorded.push_back(r.seconds);
    recorded_cpu.push_back(r.cpu_seconds);
    nlohmann::json meta = read_meta(dir);
    writer_cpu.push_back(double(meta["recorder"].value("writer_cpu_ns", uint64_t(0))) * 1e-9);
    events = meta["recorder"]["events_written"].get<uint64_t>();
    if (meta["recorder"]["events_lost"].get<uint64_t>() != 0)
      std::printf("  (events were lost!)\n");
    fs::remove_all(dir);
  }
  double p = median(plain), e = median(empty), r = median(recorded);
  double per_event = (r - e) * 1e9 / double(events);
  std::printf("  median wall time: uninstrumented %.3f s, empty tool %.3f s, recorder %.3f s\n", p,
              e, r);
  std::printf("  events recorded %llu; (recorder - empty tool) / events = %.2f ns per event\n",
              (unsigned long long)events, per_event);
  std::printf("  cost per event / rdtsc = %.2f (bar: <= 2)\n", per_event / rdtsc_ns);
  std::printf("  slowdown: empty tool %.3f, recorder %.3f (vs uninstrumented)\n", e / p, r / p);
  // Where the CPU time goes: the writer thread's own CPU time is in the metadata; the rest of
  // the extra CPU time is spent in the program's thread (callbacks, and the program slowed).
  double ec = median(empty_cpu), rc = median(recorded_cpu), wc = median(writer_cpu);
  double extra = (rc - ec) * 1e9 / double(events), writer = wc * 1e9 / double(events);
  std::printf(
      "  median CPU time: empty tool %.3f s, recorder %.3f s, of which writer thread %.3f s\n", ec,
      rc, wc);
  std::printf(
      "  extra CPU per event %.2f ns = program thread %.2f ns (%.2f x rdtsc) + writer "
      "thread %.2f ns\n",
      extra, extra - writer, (extra - writer) / rdtsc_ns, writer);
  return per_event;
}

// ---- 3. size --------------------------------------------------------------------------------

void trace_sizes() {
  struct Case {
    std::string name;
    std::vector<std::string> args;
  };
  std::vector<Case> cases = {{"fib", {"25"}},
                             {"nqueens", {"9"}},
                             {"dep_chain", {"5000", "0"}},
                             {"wavefront", {"40", "0"}}};
  std::printf("\nTrace size, 2 threads (bar: <= 12 bytes per event)\n");
  std::printf("  %-10s %10s %12s %14s %14s\n", "program", "events", "stream bytes", "bytes/event",
              "with metadata");
  for (const Case& c : cases) {
    std::string dir = scratch("size-" + c.name);
    std::vector<std::string> argv = {TASKLENS_BIN, "run", "-q", "-n",           "2",
                                     "-o",         dir,   "--", example(c.name)};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    ProcessRun r = run_process(argv, {});
    nlohmann::json meta = read_meta(dir);
    if (r.status != 0 || meta.is_discarded()) {
      std::printf("  %-10s failed (status %d)\n", c.name.c_str(), r.status);
      continue;
    }
    uint64_t events = meta["recorder"]["events_written"], stream = 0, all = 0;
    for (const auto& t : meta["threads"]) stream += t["bytes"].get<uint64_t>();
    for (const auto& f : fs::directory_iterator(dir)) all += f.file_size();
    std::printf("  %-10s %10llu %12llu %14.2f %14.2f\n", (c.name + " " + c.args[0]).c_str(),
                (unsigned long long)events, (unsigned long long)stream,
                double(stream) / double(events), double(all) / double(events));
    fs::remove_all(dir);
  }
}

// ---- 4. memory ------------------------------------------------------------------------------

void memory(int fib_n) {
  std::vector<std::string> argv = {plain_fib(), std::to_string(fib_n)};
  std::printf("\nMemory: %s %d, 1 thread, default pool\n", argv[0].c_str(), fib_n);
  ProcessRun plain = run_process(argv, {"OMP_NUM_THREADS=1"});
  std::string dir = scratch("memory");
  ProcessRun rec =
      run_process(argv, {"OMP_NUM_THREADS=1", "OMP_TOOL_LIBRARIES=" TASKLENS_RECORDER_LIBRARY,
                         "TASKLENS_OUTPUT=" + dir});
  nlohmann::json meta = read_meta(dir);
  uint64_t events = meta["recorder"]["events_written"], lost = meta["recorder"]["events_lost"];
  uint64_t pool = meta["recorder"]["buffer_bytes"],
           peak_chunks = meta["recorder"]["peak_chunks_in_use"];
  uint64_t chunk = meta["recorder"]["chunk_bytes"];
  std::printf("  events recorded %llu (lost %llu), wall %.1f s (uninstrumented %.1f s)\n",
              (unsigned long long)events, (unsigned long long)lost, rec.seconds, plain.seconds);
  std::printf("  peak RSS: uninstrumented %.1f MiB, recorded %.1f MiB, difference %.1f MiB\n",
              plain.peak_rss_kib / 1024.0, rec.peak_rss_kib / 1024.0,
              (rec.peak_rss_kib - plain.peak_rss_kib) / 1024.0);
  std::printf("  pool %.1f MiB, of which at most %llu chunks (%.1f MiB) were ever in use\n",
              double(pool) / 1048576.0, (unsigned long long)peak_chunks,
              double(peak_chunks * chunk) / 1048576.0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace tasklens::bench

int main(int argc, char** argv) {
  using namespace tasklens::bench;
  bool micro = true;
  int runs = 5, fib_n = 30, memory_fib = 0;
  std::vector<char*> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--skip-micro")
      micro = false;
    else if (a == "--runs" && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (a == "--fib" && i + 1 < argc)
      fib_n = std::atoi(argv[++i]);
    else if (a == "--memory" && i + 1 < argc)
      memory_fib = std::atoi(argv[++i]);
    else
      rest.push_back(argv[i]);
  }
  // First, while this process is small: a child's peak RSS counts what it had before exec.
  if (memory_fib > 0) memory(memory_fib);
  double rdtsc_ns = 0;
  if (micro) {
    int n = int(rest.size());
    benchmark::Initialize(&n, rest.data());
    Collecting reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    rdtsc_ns = reporter.ns["BM_Rdtsc"];
    std::printf("\nCost per event / rdtsc (%.2f ns), bar <= 2:\n", rdtsc_ns);
    for (const char* b : {"BM_RecordHotPath", "BM_TaskScheduleCallback", "BM_TaskCreateCallback"}) {
      if (reporter.ns.count(b)) {
        std::printf("  %-26s %7.2f ns  ratio %.2f\n", b, reporter.ns[b], reporter.ns[b] / rdtsc_ns);
      }
    }
    // The sustained callbacks wrote a trace: how often did they have to wait for the writer?
    tasklens::recorder::g_session.finish();
    // The children below must not believe they record into the micro benchmarks' folder.
    unsetenv("TASKLENS_OUTPUT");
    unsetenv("TASKLENS_QUIET");
  }
  if (rdtsc_ns == 0) {
    uint64_t t0 = __rdtsc();
    auto s0 = tasklens::recorder::monotonic_ns();
    for (int i = 0; i < 10000000; ++i) benchmark::DoNotOptimize(__rdtsc());
    rdtsc_ns = double(tasklens::recorder::monotonic_ns() - s0) / 1e7;
    (void)t0;
  }
  if (runs > 0) end_to_end(fib_n, runs, rdtsc_ns);
  trace_sizes();
  std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                              ("tasklens-bench-" + std::to_string(getpid())));
  return 0;
}
