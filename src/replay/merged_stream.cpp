// MergedStream: the k-way merge of the thread streams in time order.
#include "replay/merged_stream.h"

namespace tasklens::replay {

bool MergedStream::Cursor::refill(const format::Clock& clock, bool make_records) {
  pos = 0;
  if (!reader->next_chunk(&events, &count)) return false;
  if (!make_records) return true;
  // Converted for the whole chunk in one loop: cheaper than one event at a time in next().
  records.resize(count);
  for (size_t i = 0; i < count; ++i) {
    records[i].ev = events[i];
    records[i].ev.time = clock.to_ns(events[i].time);
    records[i].thread = thread;
  }
  return true;
}

Result<std::unique_ptr<MergedStream>> MergedStream::open(const format::Experiment& x) {
  // It has no streams: replayed, it would read as a run in which nothing happened (zero work, no
  // tasks), which `diff`, `compare` and `--what-if-also` printed as figures.
  if (x.metadata.profile_mode()) {
    return tasklens::Error{x.dir + ": a profile-mode experiment " + format::Metadata::kNeedsTrace};
  }
  auto m = std::unique_ptr<MergedStream>(new MergedStream());
  m->clock_ = x.clock;
  for (const auto& path : x.streams) {
    auto r = format::StreamReader::open(path);
    if (!r) {
      // One unreadable stream (not ours, a newer version) must not hide the other threads.
      m->unreadable_.push_back({format::Problem::Severity::kDataLost, r.error().message});
      continue;
    }
    uint32_t thread = (*r)->thread();
    bool twice = false;
    for (const Cursor& other : m->cursors_) twice |= other.thread == thread;
    if (twice) {
      // Two streams of one thread (a copied file): the first one read is kept.
      m->unreadable_.push_back({format::Problem::Severity::kDataLost,
                                path + ": a second stream of thread " + std::to_string(thread) +
                                    "; not read"});
      continue;
    }
    Cursor c;
    c.reader = std::move(r.value());
    c.thread = thread;
    m->thread_count_ = std::max(m->thread_count_, c.thread + 1);
    m->cursors_.push_back(std::move(c));
  }
  for (uint32_t i = 0; i < m->cursors_.size(); ++i) {
    if (m->cursors_[i].refill(m->clock_)) m->heap_.push_back(i);
  }
  for (size_t i = m->heap_.size() / 2; i-- > 0;) m->sift_down(i);
  m->take_from_heap();
  return m;
}

void MergedStream::set_limit() {
  if (heap_.empty()) {
    limit_ticks_ = UINT64_MAX;  // nothing to wait for (a tie at the maximum is harmless)
    limit_thread_ = UINT32_MAX;
    return;
  }
  const Cursor& first = cursors_[heap_[0]];
  limit_ticks_ = first.events[first.pos].time;
  limit_thread_ = first.thread;
}

void MergedStream::take_from_heap() {
  current_ = nullptr;
  if (heap_.empty()) return;
  current_index_ = heap_[0];
  current_ = &cursors_[current_index_];
  heap_[0] = heap_.back();
  heap_.pop_back();
  if (heap_.size() > 1) sift_down(0);
  set_limit();
}

size_t MergedStream::read(Record* out, size_t max) {
  records_ = false;
  size_t n = 0;
  while (n < max && current_) {
    Cursor* c = current_;
    const format::Event& e = c->events[c->pos];
    Record& r = out[n++];
    r.ev = e;
    r.ev.time = clock_.to_ns(e.time);
    r.thread = c->thread;
    if (__builtin_expect(++c->pos == c->count, 0)) {
      next_chunk();
      continue;
    }
    // As in next(): the current stream goes on while it stays ahead of the heap's first.
    uint64_t t = c->events[c->pos].time;
    if (t > limit_ticks_ || (t == limit_ticks_ && c->thread > limit_thread_)) swap_with_heap();
  }
  events_read_ += n;
  return n;
}

void MergedStream::next_chunk() {
  if (!current_->refill(clock_, records_)) {
    take_from_heap();
    return;
  }
  uint64_t t = current_->events[0].time;
  if (t > limit_ticks_ || (t == limit_ticks_ && current_->thread > limit_thread_)) {
    swap_with_heap();
  }
}

void MergedStream::swap_with_heap() {
  std::swap(current_index_, heap_[0]);
  current_ = &cursors_[current_index_];
  if (heap_.size() > 1) sift_down(0);
  set_limit();
}

bool MergedStream::before(uint32_t a, uint32_t b) const {
  const Cursor& x = cursors_[a];
  const Cursor& y = cursors_[b];
  uint64_t tx = x.events[x.pos].time, ty = y.events[y.pos].time;
  return tx < ty || (tx == ty && x.thread < y.thread);
}

void MergedStream::sift_down(size_t i) {
  size_t n = heap_.size();
  while (true) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < n && before(heap_[l], heap_[m])) m = l;
    if (r < n && before(heap_[r], heap_[m])) m = r;
    if (m == i) return;
    std::swap(heap_[i], heap_[m]);
    i = m;
  }
}

std::vector<format::Problem> MergedStream::problems() const {
  std::vector<format::Problem> all = unreadable_;
  for (const Cursor& c : cursors_) {
    all.insert(all.end(), c.reader->problems().begin(), c.reader->problems().end());
  }
  return all;
}

}  // namespace tasklens::replay
