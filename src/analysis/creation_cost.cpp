// The runtime's time inside task creation: its estimate per run and its claims per creation.
#include "analysis/creation_cost.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "format/event_views.h"
#include "format/stream_reader.h"

namespace tasklens::analysis {

using format::Kind;

const char* creation_method_name(CreationCost::Method m) {
  switch (m) {
    case CreationCost::Method::kBackToBack:
      return "back_to_back";
    case CreationCost::Method::kIsolated:
      return "isolated";
    case CreationCost::Method::kNone:
      break;
  }
  return "none";
}

void CreationSampler::merge(const CreationSampler& other) {
  back_to_back_.insert(back_to_back_.end(), other.back_to_back_.begin(), other.back_to_back_.end());
  isolated_.insert(isolated_.end(), other.isolated_.begin(), other.isolated_.end());
}

void CreationSampler::next_thread() {
  have_prev_ = prev_create_ = pending_ = false;
}

template <class ToNs>
__attribute__((always_inline)) inline void CreationSampler::take(const format::Event& e,
                                                                 const ToNs& to_ns) {
  const Kind k = e.kind;
  if (__builtin_expect(k != Kind::kTaskCreate, 1)) {
    if (part_of_creation(k)) return;
    if (k == Kind::kLost || k == Kind::kToolStall) {
      // The recorder lost events or stalled the thread: no gap across it is a creation.
      next_thread();
      return;
    }
    if (pending_) {
      isolated_.push_back({pending_code_, pending_before_ + (to_ns(e.time) - pending_ns_)});
      pending_ = false;
    }
    have_prev_ = true;
    prev_create_ = false;  // (prev_code_ is read only after a creation)
    prev_time_ = e.time;
    return;
  }
  const uint64_t code = format::ev::TaskCreate::of(e).codeptr;
  pending_ = false;
  if (have_prev_) {
    const uint64_t now = to_ns(e.time), prev = to_ns(prev_time_);
    if (now >= prev) {
      if (prev_create_) {
        // One construct's when both creations are of it; the run's only otherwise.
        back_to_back_.push_back({prev_code_ == code ? code : 0, now - prev});
      } else {
        pending_ = true;
        pending_ns_ = now;
        pending_before_ = now - prev;
        pending_code_ = code;
      }
    }
  }
  have_prev_ = true;
  prev_create_ = true;
  prev_time_ = e.time;
  prev_code_ = code;
}

void CreationSampler::add(const format::Event& e) {
  take(e, [](uint64_t ns) { return ns; });
}

void CreationSampler::add(const format::Event* events, size_t count, const format::Clock& clock) {
  auto to_ns = [&clock](uint64_t ticks) { return clock.to_ns(ticks); };
  for (size_t i = 0; i < count; ++i) take(events[i], to_ns);
}

namespace {

uint64_t tenth_percentile(std::vector<uint64_t>& v) {
  auto k = v.begin() + ptrdiff_t(v.size() / 10);
  std::nth_element(v.begin(), k, v.end());
  return *k;
}

}  // namespace

CreationCost CreationSampler::estimate() {
  CreationCost c;
  const bool b2b = back_to_back_.size() >= CreationCost::kMinSamples;
  std::vector<Sample>& run = b2b ? back_to_back_ : isolated_;
  if (run.size() >= CreationCost::kMinSamples) {
    // In place (the samples' order is no one's): fib 30's millions of samples were copied.
    auto k = run.begin() + ptrdiff_t(run.size() / 10);
    std::nth_element(run.begin(), k, run.end(),
                     [](const Sample& a, const Sample& b) { return a.ns < b.ns; });
    c.method = b2b ? CreationCost::Method::kBackToBack : CreationCost::Method::kIsolated;
    c.ns = k->ns;
    c.samples = run.size();
  }
  // Per construct: its back-to-back gaps, else its isolated spans. A lookup per construct met,
  // not per sample (the list found last is kept).
  std::unordered_map<uint64_t, std::vector<uint64_t>> b2b_of, isolated_of;
  auto group = [](std::unordered_map<uint64_t, std::vector<uint64_t>>& of,
                  const std::vector<Sample>& samples, bool with_zero) {
    uint64_t last = 0;
    std::vector<uint64_t>* list = nullptr;
    for (const Sample& s : samples) {
      if (!s.codeptr && !with_zero) continue;
      if (!list || s.codeptr != last) list = &of[last = s.codeptr];
      list->push_back(s.ns);
    }
  };
  group(b2b_of, back_to_back_, false);
  group(isolated_of, isolated_, true);
  for (auto* by : {&isolated_of, &b2b_of}) {  // back-to-back last: it wins
    for (auto& [code, ns] : *by) {
      if (ns.size() >= CreationCost::kMinSamples) c.by_construct[code] = tenth_percentile(ns);
    }
  }
  return c;
}

namespace {

// Enough for the 10th percentile of any construct that matters; a bound on the scan's time.
constexpr uint64_t kMaxEventsPerThread = uint64_t(1) << 22;

void scan_stream(const format::Experiment& x, const std::string& path, CreationSampler& sampler) {
  auto reader = format::StreamReader::open(path);
  if (!reader) return;
  uint64_t read = 0;
  const format::Event* events;
  size_t count;
  while (read < kMaxEventsPerThread && (*reader)->next_chunk(&events, &count)) {
    sampler.add(events, count, x.clock);
    read += count;
  }
}

CreationCost scan(const format::Experiment& x) {
  // Every pass that claims creations waits for this scan before its replay starts: the streams
  // are scanned on as many threads as there are cores. The samples are merged in stream order
  // (the estimate, a percentile, does not depend on their order).
  std::vector<CreationSampler> samplers(x.streams.size());
  size_t workers =
      std::min<size_t>(x.streams.size(), std::max(1u, std::thread::hardware_concurrency()));
  auto work = [&](size_t first) {
    for (size_t i = first; i < x.streams.size(); i += workers)
      scan_stream(x, x.streams[i], samplers[i]);
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work, w);
  if (workers) work(0);
  for (std::thread& t : threads) t.join();
  if (samplers.empty()) return CreationSampler().estimate();
  CreationSampler& all = samplers[0];
  for (size_t i = 1; i < samplers.size(); ++i) all.merge(samplers[i]);
  return all.estimate();
}

}  // namespace

const CreationCost& creation_cost(const format::Experiment& x) {
  // One entry: a report's passes ask for the same experiment, one after the other.
  static std::mutex mutex;
  static std::string key;
  static CreationCost cached;
  std::string k = x.dir;
  std::error_code ec;
  for (const std::string& path : x.streams) {
    k += ':' + std::to_string(std::filesystem::file_size(path, ec));
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (k != key) {
    cached = scan(x);
    key = k;
  }
  return cached;
}

void CreationClaims::begin(uint32_t threads, const CreationCost* cost) {
  cost_ = cost;
  have_last_[0] = have_last_[1] = false;
  threads_.assign(threads, Thread{});
}

uint64_t CreationClaims::look_up(uint64_t code) {
  last_code_[1] = last_code_[0];
  last_cost_[1] = last_cost_[0];
  have_last_[1] = have_last_[0];
  last_code_[0] = code;
  last_cost_[0] = cost_->of(code);
  have_last_[0] = true;
  return last_cost_[0];
}

}  // namespace tasklens::analysis
