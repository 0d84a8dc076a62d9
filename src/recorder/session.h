// The recorder's life cycle and global state: start-up (config, pool, writer, metadata),
// normal end (flush every thread, drain the writer, final metadata), and the emergency end on a
// fatal or terminating signal. One instance per process: g_session.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>

#include "format/json_out.h"
#include "format/mpi_env.h"
#include "recorder/chunk_pool.h"
#include "recorder/clock.h"
#include "recorder/config.h"
#include "recorder/output_dir.h"
#include "recorder/thread_buffer.h"
#include "recorder/writer.h"

namespace tasklens::recorder {

enum class RunStatus : uint8_t { kNotStarted, kRunning, kComplete, kCrashed, kInterrupted };

// The OMPT callbacks the tool asked for and what the runtime answered (ompt_set_result_t).
struct GrantedCallback {
  const char* name;
  int result;
};

class Session {
 public:
  // Starts recording; false (with a warning on stderr) when the output cannot be written.
  // `runtime_version` is set before, by ompt_start_tool. Then the callbacks are registered
  // (note_callback) and begin() writes the first metadata, once, with the callbacks granted,
  // and starts the writer thread.
  bool start();
  bool begin();
  // Normal end: flush all threads, drain the writer, write the final metadata. Idempotent.
  void finish();
  // End on a signal: as much as can be done safely from a signal handler, then return.
  void finish_on_signal(int sig);
  // Stops recording in a forked child, which has no writer thread.
  void disable_after_fork();

  bool recording() const { return recording_.load(std::memory_order_acquire); }

  void note_callback(const char* name, int result);
  // Interns a user-API name; returns its id (index in the metadata's "strings" array + 1).
  uint32_t intern(const char* name);

  // Rewrites experiment.json with the current state; false when it could not be written.
  bool write_metadata();

  Config config;
  ChunkPool pool;
  Writer writer;
  // Not initialized (32 KB): the session is made in zeroed memory (session.cpp, make_session).
  std::atomic<ThreadBuffer*> threads[kMaxThreads];
  std::atomic<uint32_t> thread_count{0};
  std::atomic<uint64_t> threads_refused{0};  // events of threads beyond kMaxThreads

  OutputDir output;  // where this process writes (DIR, or DIR/pid-N for a descendant)
  ClockSample clock_start, clock_end;
  uint64_t process_start_ns = 0;  // CLOCK_MONOTONIC (process_info.h)
  // The starting thread's run-queue wait at start() (recorder.run_delay_before_ns).
  std::optional<uint64_t> run_delay_before;
  const char* process_start_source = "";
  uint32_t affinity_cpus = 0, online_cpus = 0;
  uint64_t start_unix_ns = 0;
  bool invariant_tsc = false;
  char runtime_version[256] = {};

 private:
  void flush_all_threads();
  // Writes the metadata into file `name` of the output directory (created anew).
  bool write_file(const char* name, const format::JsonOut& o);
  // Writes the metadata over the contents of the existing file `name` (not created, cut to
  // its size); on failure the file is cut to nothing.
  bool rewrite_file(const char* name, const format::JsonOut& o);

  std::atomic<bool> recording_{false};
  std::atomic<RunStatus> status_{RunStatus::kNotStarted};
  int end_signal_ = 0;
  // The MPI rank and size, read from the environment at start(): write_metadata runs in signal
  // handlers, where getenv is not async-signal-safe (a program may be changing its environment).
  format::MpiPlace mpi_place_;
  std::atomic<bool> finishing_{false};
  std::atomic<bool> finished_{false};  // finish() or the signal handler has written everything

  GrantedCallback callbacks_[64] = {};
  uint32_t callback_count_ = 0;

  // Interned names, owned copies. A fixed array, never moved: the metadata reads it without the
  // lock (the writer thread, a signal handler) up to string_count_, published with release.
  static constexpr uint32_t kMaxStrings = 8192;
  std::mutex strings_mutex_;
  const char* strings_[kMaxStrings];  // not initialized (64 KB): zeroed memory, as threads
  std::atomic<uint32_t> string_count_{0};

  std::atomic_flag metadata_busy_ = ATOMIC_FLAG_INIT;
  bool metadata_written_ = false;  // experiment.json holds a metadata (under metadata_busy_)
  char* metadata_buf_ = nullptr;  // mapped at start: the crash path must not allocate
  size_t metadata_cap_ = 0;
  char library_path_[4096] = {};  // this libtasklens.so, as the dynamic loader found it
};

extern Session& g_session;

}  // namespace tasklens::recorder
