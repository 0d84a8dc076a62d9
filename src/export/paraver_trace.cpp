// ParaverTrace: a Paraver trace's objects, values and files (.prv, .pcf, .row).
#include "export/paraver_trace.h"

#include <time.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "export/formats.h"
#include "export/paraver_mpi.h"
#include "format/event.h"

namespace tasklens::exports {
namespace fs = std::filesystem;
using namespace paraver;

namespace {

constexpr StateName kStates[] = {
    {kIdle, "Idle", "{117,195,255}"},
    {kRunning, "Running", "{0,0,255}"},
    {kNotCreated, "Not created", "{255,255,255}"},
    {kCreated, "Created, not ready (dependences)", "{255,180,80}"},
    {kReady, "Ready", "{255,230,0}"},
    {kSynchronization, "Synchronization", "{255,0,0}"},
    {kSuspended, "Suspended", "{180,0,180}"},
    {kOverhead, "Runtime overhead", "{0,160,0}"},
    {kDetached, "Detached (waiting for fulfill)", "{120,120,120}"},
};

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

[[gnu::always_inline]] inline char* put(char* p, uint64_t v) {
  if (v < 10) {  // most values (states, regions, threads) are small
    *p = char('0' + v);
    return p + 1;
  }
  if (v < 100) {
    std::memcpy(p, kPairs + 2 * v, 2);
    return p + 2;
  }
  return std::to_chars(p, p + 20, v).ptr;
}
[[gnu::always_inline]] inline char* put(char* p, int64_t v) {
  if (v >= 0) return put(p, uint64_t(v));
  return std::to_chars(p, p + 20, v).ptr;
}
char* put(char* p, const char* s, size_t n) {
  std::memcpy(p, s, n);
  return p + n;
}

// The text of the last number it wrote, copied when the next is the same: most records have the
// time of the record before (80 % on fib), and many events the type of the event before.
// put() is inlined into the formatting loop (a call per number was a tenth of its
// instructions); only a new number calls update().
struct CachedNumber {
  static constexpr size_t kRoom = 24;  // copied whole: the caller reserves it
  uint64_t value = UINT64_MAX;
  uint64_t high = UINT64_MAX / 10000;  // value / 10000
  char text[kRoom] = {};
  size_t size = 0;
  [[gnu::always_inline]] char* put(char* p, uint64_t v) {
    if (v != value) update(v);
    std::memcpy(p, text, kRoom);
    return p + size;
  }
  void update(uint64_t v) {
    // Times in order mostly differ from the one before in their last four digits: when the
    // rest is the same (and not empty, so both have as many digits), only those are written.
    uint64_t h = v / 10000;
    if (h == high && h != 0 && size > 4) {
      uint32_t low = uint32_t(v - h * 10000);
      std::memcpy(text + size - 4, kPairs + 2 * (low / 100), 2);
      std::memcpy(text + size - 2, kPairs + 2 * (low % 100), 2);
    } else {
      size = size_t(std::to_chars(text, text + kRoom, v).ptr - text);
    }
    value = v;
    high = h;
  }
};

}  // namespace

ParaverTrace::ParaverTrace(OutputPath path, size_t sort_run_records)
    : path_(std::move(path)), sort_run_records_(sort_run_records) {}

ParaverTrace::~ParaverTrace() {
  end_intake();
  sorter_.reset();
  std::error_code ec;
  if (!tmp_dir_.empty()) fs::remove_all(tmp_dir_, ec);
}

Result<bool> ParaverTrace::open() {
  for (auto [out, suffix] : {std::pair{&prv_, ".prv"}, {&pcf_, ".pcf"}, {&row_, ".row"}}) {
    auto r = out->open(path_.join(suffix));
    if (!r) return r.error();
  }
  prv_.write_behind();  // gigabytes: the kernel's copy overlaps the formatting
  tmp_dir_ = path_.join(".prv-tmp");
  std::error_code ec;
  fs::remove_all(tmp_dir_, ec);
  fs::create_directories(tmp_dir_, ec);
  if (ec) return Error{"cannot create " + tmp_dir_ + ": " + ec.message()};
  for (auto [out, name] : {std::pair{&values_, "/values.txt"}, {&row_names_, "/rows.txt"}}) {
    auto r = out->open(tmp_dir_ + name);
    if (!r) return r.error();
  }
  values_.write_behind();  // a label per task (85 MB on fib 30): copied out off the replay thread
  sorter_ = std::make_unique<ExternalSorter<PrvRecord, PrvCodec>>(tmp_dir_, sort_run_records_);
  // The sort's intake (piles, encoding, spills: a fifth of the export's instructions) runs on
  // the second core while the replay makes the next records.
  intake_thread_ = std::thread([this] {
    size_t n = 0;
    auto add = [this](const PrvRecord& r) { sorter_->add(r); };
    while (const PrvRecord* block = intake_.next_block(&n)) {
      for (size_t i = 0; i < n; ++i) {
        if (block[i].kind == kLabel) {
          write_label(block[i]);
        } else {
          grouper_.add(block[i], add);
        }
      }
      grouper_.keep();  // the block goes back to the replay
    }
    grouper_.flush(add);
  });
  return true;
}

void ParaverTrace::end_intake() {
  if (!intake_thread_.joinable()) return;
  intake_.close();
  intake_thread_.join();
}

void ParaverTrace::add_process(std::string name, std::string program, std::string host,
                               uint64_t start_unix_ns) {
  Process p;
  p.name = std::move(name);
  p.program = std::move(program);
  p.start_unix_ns = start_unix_ns;
  p.host = host.empty() ? std::string("node") : std::move(host);
  auto node = std::find(nodes_.begin(), nodes_.end(), p.host);
  p.node = uint32_t(node - nodes_.begin());
  if (node == nodes_.end()) nodes_.push_back(p.host);
  p.first_thread_row = thread_rows();
  p.first_task_row = task_rows_;
  processes_.push_back(std::move(p));
}

uint32_t ParaverTrace::add_thread_row(uint32_t thread) {
  processes_.back().threads.push_back(thread);
  thread_row_process_.push_back(uint32_t(processes_.size() - 1));
  return thread_rows() - 1;
}

uint32_t ParaverTrace::add_task_row(std::string_view name) {
  row_names_.print("{}\n", plain_label(name));
  ++processes_.back().task_rows;
  task_row_process_.push_back(uint32_t(processes_.size() - 1));
  return task_rows_++;
}

void ParaverTrace::set_per_instance(bool per_instance) {
  processes_.back().per_instance = per_instance;
}

const std::string* ParaverTrace::keep(std::string text) {
  kept_.push_back(std::move(text));
  return &kept_.back();
}

namespace {

// A label's id: id_text() without its allocations, "T<thread>#<counter>" or the number alone,
// in at most kIdRoom characters.
constexpr size_t kIdRoom = 1 + 10 + 1 + 15;
char* put_task_id(char* p, uint64_t id) {
  if (id == 0) return put(p, "none", 4);
  if ((id >> 48) == 0) return std::to_chars(p, p + 20, id).ptr;
  *p++ = 'T';
  p = std::to_chars(p, p + 10, format::id_thread(id)).ptr;
  *p++ = '#';
  return std::to_chars(p, p + 20, format::id_counter(id)).ptr;
}

}  // namespace

void ParaverTrace::task_label(std::string& out, std::string_view prefix, uint64_t id,
                              std::string_view region) {
  out.resize(prefix.size() + kIdRoom + 1 + region.size());
  char* p = put(out.data(), prefix.data(), prefix.size());
  p = put_task_id(p, id);
  *p++ = ' ';
  p = put(p, region.data(), region.size());
  out.resize(size_t(p - out.data()));
}

void ParaverTrace::write_label(const PrvRecord& r) {
  const auto& prefix = *reinterpret_cast<const std::string*>(intptr_t(r.value));
  const auto& region = *reinterpret_cast<const std::string*>(uintptr_t(r.time2));
  // As the .pcf lists values: "{:<6} {}\n".
  char* p = values_.reserve(prefix.size() + kIdRoom + region.size() + 32);
  char* digits = p;
  p = put(p, uint64_t(r.row));
  while (p < digits + 6) *p++ = ' ';
  *p++ = ' ';
  p = put(p, prefix.data(), prefix.size());
  p = put_task_id(p, r.time);
  *p++ = ' ';
  p = put(p, region.data(), region.size());
  *p++ = '\n';
  values_.commit(p);
}

void ParaverTrace::window(uint64_t from, uint64_t to) {
  from_ = std::min(from_, from);
  to_ = std::max(to_, to);
}

uint32_t ParaverTrace::region_value(const Region& r) {
  auto [it, added] = region_index_.try_emplace({int(r.kind), r.name}, 0);
  if (added) {
    regions_.emplace_back(r.kind, r.name);
    it->second = uint32_t(regions_.size());
  }
  return it->second;
}

uint32_t ParaverTrace::parameter_index(const std::string& name) {
  auto [it, added] = param_index_.try_emplace(name, 0);
  if (added) {
    param_names_.push_back(name);
    param_values_.emplace_back();
    it->second = uint32_t(param_names_.size() - 1);
  }
  return it->second;
}

bool ParaverTrace::parameter_value(uint32_t index, int64_t value) {
  auto& values = param_values_[index];
  if (values.count(value)) return true;
  if (param_value_count_ >= kMaxParameterValues) {
    params_capped_ = true;
    return false;  // the .pcf could not name it
  }
  values.insert(value);
  ++param_value_count_;
  return true;
}

uint32_t ParaverTrace::counter_index(const std::string& name) {
  auto it = std::find(counters_.begin(), counters_.end(), name);
  if (it != counters_.end()) return uint32_t(it - counters_.begin());
  counters_.push_back(name);
  return uint32_t(counters_.size() - 1);
}

// CPUs are numbered node after node; within a node, process after process.
void ParaverTrace::number_cpus() {
  thread_row_cpu_.assign(thread_rows(), 0);
  uint32_t cpu = 0;
  for (uint32_t n = 0; n < nodes_.size(); ++n) {
    for (const Process& p : processes_) {
      if (p.node != n) continue;
      for (uint32_t k = 0; k < p.threads.size(); ++k)
        thread_row_cpu_[p.first_thread_row + k] = ++cpu;
    }
  }
}

// The record's object fields, cpu:appl:task:thread, as object_text() wrote them once per row.
char* ParaverTrace::put_object(char* p, uint32_t row) const {
  bool task = row & kTaskRow;
  uint32_t r = row & ~kTaskRow;
  if (r >= object_counts_[task]) return object_text(p, row);
  const ObjectText& o = objects_[task][r];
  std::memcpy(p, o.text, sizeof o.text);  // the whole array: fewer bytes than reserved
  return p + o.size;
}

char* ParaverTrace::object_text(char* p, uint32_t row) const {
  if (row & kTaskRow) {
    uint32_t r = row & ~kTaskRow;
    uint32_t process = r < task_row_process_.size() ? task_row_process_[r] : 0;
    p = put(p, "0:2:", 4);
    p = put(p, uint64_t(process + 1));
    *p++ = ':';
    return put(p, uint64_t(r - processes_[process].first_task_row + 1));
  }
  uint32_t process = row < thread_row_process_.size() ? thread_row_process_[row] : 0;
  p = put(p, uint64_t(row < thread_row_cpu_.size() ? thread_row_cpu_[row] : row + 1));
  p = put(p, ":1:", 3);
  p = put(p, uint64_t(process + 1));
  *p++ = ':';
  return put(p, uint64_t(row - processes_[process].first_thread_row + 1));
}

Result<bool> ParaverTrace::write() {
  end_intake();
  // The .pcf and .row (on fib 30, 85 MB of task labels copied from the scratch folder) are
  // written beside the sort's last step and the .prv: they read only what the replay left.
  Result<bool> pcf = true, row = true;
  std::thread names([&] {
    pcf = write_pcf();
    if (pcf) row = write_row();
  });
  auto prv = [&]() -> Result<bool> {
    auto sealed = sorter_->seal();
    if (!sealed) return sealed.error();
    if (from_ > to_) from_ = to_ = 0;
    number_cpus();
    auto texts = [this](uint32_t rows, uint32_t flag, std::vector<ObjectText>& out) {
      out.resize(rows);
      for (uint32_t r = 0; r < rows; ++r) {
        out[r].size = uint8_t(object_text(out[r].text, r | flag) - out[r].text);
      }
    };
    texts(thread_rows(), 0, thread_objects_);
    texts(task_rows_, kTaskRow, task_objects_);
    objects_[0] = thread_objects_.data();
    objects_[1] = task_objects_.data();
    object_counts_[0] = uint32_t(thread_objects_.size());
    object_counts_[1] = uint32_t(task_objects_.size());
    return write_prv();
  }();
  names.join();
  for (const Result<bool>* r : {&prv, &pcf, &row}) {
    if (!*r) return r->error();
  }
  return true;
}

Result<bool> ParaverTrace::write_prv() {
  uint64_t start_unix = processes_.empty() ? 0 : processes_.front().start_unix_ns;
  time_t when = time_t(start_unix / 1000000000ull);
  tm local{};
  localtime_r(&when, &local);
  char date[32];
  strftime(date, sizeof date, "%d/%m/%y at %H:%M", &local);
  prv_.print("#Paraver ({}):{}_ns:{}(", date, to_ - from_, nodes_.size());
  for (uint32_t n = 0; n < nodes_.size(); ++n) {
    uint32_t cpus = 0;
    for (const Process& p : processes_) cpus += p.node == n ? uint32_t(p.threads.size()) : 0;
    prv_.print("{}{}", n ? "," : "", cpus);
  }
  prv_.print("):{}:{}(", task_rows_ ? 2 : 1, processes_.size());
  for (size_t i = 0; i < processes_.size(); ++i) {
    prv_.print("{}{}:{}", i ? "," : "", processes_[i].threads.size(), processes_[i].node + 1);
  }
  prv_.write(")");
  if (task_rows_) {
    prv_.print(":{}(", processes_.size());
    for (size_t i = 0; i < processes_.size(); ++i) {
      prv_.print("{}{}:{}", i ? "," : "", std::max<uint32_t>(processes_[i].task_rows, 1),
                 processes_[i].node + 1);
    }
    prv_.write(")");
  }

  // Events of one object at one time share a line: a line ends when the next record starts.
  // Formatted straight into the output buffer, a block of records at a time: the longest record
  // is under 300 bytes, the numbers copied whole (CachedNumber) taking 24 bytes each.
  // The merge (decoding the runs, choosing the next) runs on the second core meanwhile.
  BlockPipe<PrvRecord> merged;
  std::thread merger([&] {
    for (;;) {
      size_t room = 0;
      PrvRecord* p = merged.room(&room);
      size_t n = sorter_->next(p, room);
      if (n == 0) break;
      merged.commit(n);
    }
    merged.close();
  });
  constexpr size_t kMaxLine = 320;
  constexpr uint32_t kOwnTypes = 60000000;  // tasklens' own event types and counters (formats.h)
  uint64_t last_time = 0;
  uint32_t last_row = 0;
  bool event_line = false;
  CachedNumber time, time2, type;
  size_t count = 0;
  while (const PrvRecord* block = merged.next_block(&count)) {
    char* p = prv_.reserve(count * kMaxLine);
    for (const PrvRecord* r = block; r != block + count; ++r) {
      uint64_t t = r->time - from_;
      if (r->kind == 2 && event_line && last_time == t && last_row == r->row) {
        *p++ = ':';
      } else {
        *p++ = '\n';
        *p++ = char('0' + r->kind);
        *p++ = ':';
        p = put_object(p, r->row);
        *p++ = ':';
        p = time.put(p, t);
        *p++ = ':';
      }
      event_line = r->kind == 2;
      last_time = t;
      last_row = r->row;
      switch (r->kind) {
        case 1:  // state: begin:end:state
          p = time2.put(p, r->time2 - from_);
          *p++ = ':';
          p = put(p, r->value);
          break;
        case 2:  // event: time:type:value
          if (r->type - kOwnTypes < 100) {  // 600000tt: a line's types mostly differ
            std::memcpy(p, "600000", 6);
            std::memcpy(p + 6, kPairs + 2 * (r->type - kOwnTypes), 2);
            p += 8;
          } else {
            p = type.put(p, uint64_t(r->type));
          }
          *p++ = ':';
          p = put(p, r->value);
          break;
        default:  // communication: lsend:psend:receiver:lrecv:precv:size:tag
          p = time.put(p, t);
          *p++ = ':';
          p = put_object(p, r->row2);
          *p++ = ':';
          p = time2.put(p, r->time2 - from_);
          *p++ = ':';
          p = time2.put(p, r->time2 - from_);
          p = put(p, ":0:", 3);
          p = put(p, r->value);
          break;
      }
    }
    prv_.commit(p);
  }
  merger.join();
  prv_.write("\n");
  return prv_.close();
}

Result<bool> ParaverTrace::write_pcf() {
  pcf_.write(
      "DEFAULT_OPTIONS\n\n"
      "LEVEL               THREAD\n"
      "UNITS               NANOSEC\n"
      "LOOK_BACK           100\n"
      "SPEED               1\n"
      "FLAG_ICONS          ENABLED\n"
      "NUM_OF_STATE_COLORS 1000\n"
      "YMAX_SCALE          37\n\n\n"
      "DEFAULT_SEMANTIC\n\n"
      "THREAD_FUNC          State As Is\n\n\n"
      "STATES\n");
  for (const StateName& s : kStates) pcf_.print("{:<4} {}\n", s.value, s.name);
  if (!mpi_ops_.empty()) {
    for (const StateName& s : kMpiStates) pcf_.print("{:<4} {}\n", s.value, s.name);
  }
  pcf_.write("\n\nSTATES_COLOR\n");
  for (const StateName& s : kStates) pcf_.print("{:<4} {}\n", s.value, s.color);
  if (!mpi_ops_.empty()) {
    for (const StateName& s : kMpiStates) pcf_.print("{:<4} {}\n", s.value, s.color);
  }

  auto type = [&](uint32_t id, const std::string& name) {
    pcf_.print("\n\nEVENT_TYPE\n0    {}    {}\nVALUES\n", id, plain_label(name));
  };
  type(kTypeRegion, "Region (innermost open region on the thread)");
  pcf_.write("0      End\n");
  for (uint32_t id = 1; id <= regions_.size(); ++id) {
    pcf_.print("{:<6} {}\n", id, plain_label(regions_[id - 1].second));
  }
  type(kTypeTaskConstruct, "Task construct (running on the thread / of the task)");
  pcf_.write("0      End\n");
  for (uint32_t id = 1; id <= regions_.size(); ++id) {
    if (is_task(regions_[id - 1].first)) {
      pcf_.print("{:<6} {}\n", id, plain_label(regions_[id - 1].second));
    }
  }
  type(kTypeTaskInstance, "Task instance (running on the thread)");
  pcf_.write("0      End\n");
  auto closed = values_.close();
  if (!closed) return closed.error();
  {
    // Copied as it is: the lines were written in the .pcf's layout.
    std::ifstream in(tmp_dir_ + "/values.txt", std::ios::binary);
    std::vector<char> block(size_t(1) << 20);
    while (in.read(block.data(), std::streamsize(block.size())) || in.gcount() > 0) {
      pcf_.write(std::string_view(block.data(), size_t(in.gcount())));
    }
  }
  type(kTypeReadyTasks, "Ready tasks");
  for (uint64_t v = 0; v <= max_ready_; ++v) pcf_.print("{:<6} {}\n", v, v);
  type(kTypeThread, "Executing thread (task view)");
  pcf_.write("0      None\n");
  for (uint32_t th = 0; th < max_threads_; ++th) pcf_.print("{:<6} thread {}\n", th + 1, th);
  for (uint32_t i = 0; i < counters_.size(); ++i) {
    pcf_.print("\n\nEVENT_TYPE\n0    {}    {}\n", kTypeCounter + i,
               plain_label(counters_[i] + " (perf_event, since the thread's previous task switch" +
                           (counters_[i] == "task-clock" ? ", ns)" : ")")));
  }
  for (size_t i = 0; i < param_names_.size(); ++i) {
    type(kTypeParameter + uint32_t(i), "Parameter " + param_names_[i]);
    for (int64_t v : param_values_[i]) pcf_.print("{:<6} {}\n", v, v);
  }
  // Extrae's MPI event types, each with the calls of the trace (as Extrae names them).
  for (auto [id, name] : {std::pair{kTypeMpiPointToPoint, "MPI Point-to-point"},
                          {kTypeMpiCollective, "MPI Collective Comm"},
                          {kTypeMpiOther, "MPI Other"}}) {
    bool any = false;
    for (uint16_t op : mpi_ops_) {
      MpiCallPrv c = mpi_call_prv(op);
      if (c.type != id || c.value == 0) continue;
      if (!any) {
        type(id, name);
        pcf_.write("0      End\n");
        any = true;
      }
      pcf_.print("{:<6} MPI_{}\n", c.value, format::mpi_op_name(op));
    }
  }
  return pcf_.close();
}

Result<bool> ParaverTrace::write_row() {
  row_.print("LEVEL CPU SIZE {}\n", thread_rows());
  for (uint32_t n = 0; n < nodes_.size(); ++n) {
    for (const Process& p : processes_) {
      if (p.node != n) continue;
      for (uint32_t th : p.threads) row_.print("CPU of {}thread {}\n", p.prefix(" "), th);
    }
  }
  row_.print("\nLEVEL NODE SIZE {}\n", nodes_.size());
  for (const std::string& n : nodes_) row_.print("{}\n", plain_label(n));
  std::string program = processes_.empty() ? std::string() : processes_.front().program;
  uint32_t apps = task_rows_ ? 2 : 1;
  row_.print("\nLEVEL APPL SIZE {}\n{} (threads)\n", apps, program);
  if (task_rows_) row_.print("{} (tasks)\n", program);
  row_.print("\nLEVEL TASK SIZE {}\n", apps * processes_.size());
  for (const Process& p : processes_) row_.print("{}threads\n", p.prefix(" "));
  if (task_rows_) {
    for (const Process& p : processes_) row_.print("{}tasks\n", p.prefix(" "));
  }
  uint32_t shown_task_rows = 0;
  if (task_rows_) {
    for (const Process& p : processes_) shown_task_rows += std::max<uint32_t>(p.task_rows, 1);
  }
  row_.print("\nLEVEL THREAD SIZE {}\n", thread_rows() + shown_task_rows);
  for (const Process& p : processes_) {
    for (uint32_t th : p.threads) row_.print("{}thread {}\n", p.prefix(": "), th);
  }
  auto closed = row_names_.close();
  if (!closed) return closed.error();
  if (task_rows_) {
    std::ifstream in(tmp_dir_ + "/rows.txt");
    std::string line;
    for (const Process& p : processes_) {
      if (p.task_rows == 0) row_.print("{}no task row\n", p.prefix(": "));
      for (uint32_t k = 0; k < p.task_rows && std::getline(in, line); ++k) {
        row_.print("{}\n", line);
      }
    }
  }
  return row_.close();
}

}  // namespace tasklens::exports
