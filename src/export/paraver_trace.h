// One Paraver trace being written (.prv records sorted on disk when needed, .pcf names, .row
// object names): its objects, the values that name things, and the three files.
//
// Objects. Application 1 is the thread view: one Paraver task per process (an experiment: the
// only one, or each rank of an MPI run), its recorded threads as Paraver threads, each on a CPU of
// its own. Application 2, when some process has task-view rows, is the task view: one Paraver task
// per process again, its rows (task instances, or rows shared by instances that do not overlap)
// as Paraver threads (a process without rows gets one empty row: Paraver wants a thread per
// task). Rows are numbered over the whole trace; a process's rows are added while it is the last.
//
// Values. What names the same thing gets one value in the whole trace: a region (a construct at a
// source location, a user region, an MPI call) by kind and name, a user parameter and a counter by
// name. Task instances are numbered from 1 over the trace. MPI calls are Extrae's states, event
// types and values (paraver_mpi.h), named in the .pcf when the trace has one.
//
// Times are on the trace's time line (a rank's own times moved there by its exporter); the .prv
// counts them from the earliest window start the processes gave.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "export/block_pipe.h"
#include "export/external_sort.h"
#include "export/output.h"
#include "export/prv_group.h"
#include "export/prv_record.h"
#include "export/regions.h"
#include "format/result.h"

namespace tasklens::exports {

class ParaverTrace {
 public:
  static constexpr uint32_t kTaskRow = 0x80000000u;      // a row of the task view (application 2)
  static constexpr size_t kMaxParameterValues = 100000;  // over all parameters

  ParaverTrace(OutputPath path, size_t sort_run_records);
  ~ParaverTrace();
  ParaverTrace(const ParaverTrace&) = delete;
  ParaverTrace& operator=(const ParaverTrace&) = delete;

  // Opens the three files and the scratch folder of the sort.
  Result<bool> open();
  const OutputPath& path() const { return path_; }

  // A process (Paraver task): `name` prefixes its objects' names ("rank 1"; empty alone).
  void add_process(std::string name, std::string program, std::string host, uint64_t start_unix_ns);
  // A thread row of the last process, for its recorded thread `thread`.
  uint32_t add_thread_row(uint32_t thread);
  // A new task-view row of the last process, named `name` in the .row.
  uint32_t add_task_row(std::string_view name);
  // The last process's task view: one row per instance (else rows shared).
  void set_per_instance(bool per_instance);
  // A text kept as long as the trace (task label parts), at an address that stays.
  const std::string* keep(std::string text);
  // The next task instance's serial number (from 1), named in the .pcf by its label: `prefix`,
  // the id's text, a space, `region` (texts plain_label() leaves as they are, kept by keep()).
  // Tasks are many: the label is written by the sort's intake thread, as it comes.
  uint32_t task_serial(const std::string* prefix, uint64_t id, const std::string* region) {
    uint32_t serial = ++serials_;
    intake_.push(PrvRecord{id, uint64_t(uintptr_t(region)), int64_t(intptr_t(prefix)), 0, serial, 0,
                           kLabel});
    return serial;
  }
  // A task's label, as task_serial() names it.
  static void task_label(std::string& out, std::string_view prefix, uint64_t id,
                         std::string_view region);
  // The window a process shows, on the trace's time line.
  void window(uint64_t from, uint64_t to);

  // Values named once for the whole trace.
  uint32_t region_value(const Region& r);
  uint32_t parameter_index(const std::string& name);
  // False when the value was not seen yet and the .pcf could name no more values.
  bool parameter_value(uint32_t index, int64_t value);
  uint32_t counter_index(const std::string& name);
  void ready_tasks(uint64_t count) { max_ready_ = std::max(max_ready_, count); }
  void threads_seen(uint32_t n) { max_threads_ = std::max(max_threads_, n); }
  // An MPI call (format::MpiOp) in the trace: the .pcf names its state, event type and value.
  void mpi_call(uint16_t op) { mpi_ops_.insert(op); }

  // Records, by row (kTaskRow: a task-view row). The sort takes them in on a thread of its own.
  void event(uint32_t row, uint64_t t, uint32_t type, int64_t value) {
    intake_.push(PrvRecord{t, 0, value, type, row, 0, 2});
  }
  void state(uint32_t row, uint64_t begin, uint64_t end, uint32_t value) {
    if (end > begin) intake_.push(PrvRecord{begin, end, value, 0, row, 0, 1});
  }
  void comm(uint32_t from_row, uint64_t from_t, uint32_t to_row, uint64_t to_t, uint32_t tag) {
    intake_.push(PrvRecord{from_t, to_t, tag, 0, from_row, to_row, 3});
    ++comms_;
  }

  // Sorts the records and writes the three files.
  Result<bool> write();

  uint64_t records() const { return sorter_->count(); }  // after write()
  uint64_t comms() const { return comms_; }
  uint32_t thread_rows() const { return uint32_t(thread_row_process_.size()); }
  uint32_t task_rows() const { return task_rows_; }
  bool per_instance() const { return processes_.empty() || processes_.back().per_instance; }
  bool parameters_capped() const { return params_capped_; }
  size_t processes() const { return processes_.size(); }

 private:
  struct Process {
    std::string name, program, host;
    uint64_t start_unix_ns = 0;
    uint32_t node = 0;  // index in nodes_
    uint32_t first_thread_row = 0;
    std::vector<uint32_t> threads;  // the recorded thread of each of its thread rows
    uint32_t first_task_row = 0, task_rows = 0;
    bool per_instance = true;
    std::string prefix(const char* sep) const { return name.empty() ? "" : name + sep; }
  };

  // The object fields of a row's records, formatted once per row: 4 numbers of at most 10
  // digits and 3 colons.
  struct ObjectText {
    char text[47];
    uint8_t size = 0;
  };
  char* object_text(char* p, uint32_t row) const;
  char* put_object(char* p, uint32_t row) const;
  Result<bool> write_prv();
  Result<bool> write_pcf();
  Result<bool> write_row();
  void number_cpus();
  void end_intake();  // every record added is in the sort
  // A task-instance line of the .pcf, from task_serial()'s record (on the intake thread).
  void write_label(const PrvRecord& r);
  static constexpr uint8_t kLabel = 0;  // PrvRecord::kind of task_serial()'s records

  OutputPath path_;
  size_t sort_run_records_;
  std::string tmp_dir_;
  TextOut prv_, pcf_, row_;
  TextOut values_;     // the .pcf's lines of task instances (serial, label), in serial order
  TextOut row_names_;  // task-view row names in row order
  std::unique_ptr<ExternalSorter<PrvRecord, PrvCodec>> sorter_;
  BlockPipe<PrvRecord> intake_;  // records on their way to sorter_, on intake_thread_
  PrvEventGrouper grouper_;      // on intake_thread_, before sorter_
  std::thread intake_thread_;

  std::deque<std::string> kept_;  // keep()'s texts
  std::vector<Process> processes_;
  std::vector<std::string> nodes_;                         // host names, in order of first use
  std::vector<uint32_t> thread_row_process_;               // thread row -> process
  std::vector<uint32_t> thread_row_cpu_;                   // thread row -> CPU (from 1), by node
  std::vector<uint32_t> task_row_process_;                 // task row -> process
  std::vector<ObjectText> thread_objects_, task_objects_;  // row -> its object fields
  const ObjectText* objects_[2] = {};  // their data (thread rows, task rows), for put_object()
  uint32_t object_counts_[2] = {};
  uint32_t task_rows_ = 0;
  uint32_t serials_ = 0;
  uint64_t from_ = UINT64_MAX, to_ = 0;
  uint64_t comms_ = 0;
  uint64_t max_ready_ = 0;
  uint32_t max_threads_ = 0;

  std::map<std::pair<int, std::string>, uint32_t> region_index_;  // (kind, name) -> value
  std::vector<std::pair<Construct, std::string>> regions_;        // value - 1 -> kind, name
  std::vector<std::string> param_names_;
  std::map<std::string, uint32_t> param_index_;
  std::vector<std::set<int64_t>> param_values_;
  size_t param_value_count_ = 0;
  bool params_capped_ = false;
  std::vector<std::string> counters_;
  std::set<uint16_t> mpi_ops_;
};

}  // namespace tasklens::exports
