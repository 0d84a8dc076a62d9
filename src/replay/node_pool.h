// An allocator that keeps the single nodes a node-based container frees and hands them out again:
// a map of live tasks inserts and erases one node per task, and malloc/free were an eighth of the
// consistency check's instructions (callgrind, fib 25). Arrays (a hash table's buckets) go to
// operator new. The pool is per thread and per node type (the allocator is stateless, so a
// container's iteration order is the one std::allocator gives); it keeps at most the peak of
// nodes live at once and frees them when the thread ends.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace tasklens::replay {

template <class T>
struct NodePoolAllocator {
  using value_type = T;

  NodePoolAllocator() = default;
  template <class U>
  NodePoolAllocator(const NodePoolAllocator<U>&) {}

  T* allocate(size_t n) {
    if (n == 1) {
      std::vector<void*>& free = pool().free;
      if (!free.empty()) {
        void* p = free.back();
        free.pop_back();
        return static_cast<T*>(p);
      }
    }
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) {
    if (n == 1) {
      pool().free.push_back(p);
    } else {
      ::operator delete(p);
    }
  }

  template <class U>
  bool operator==(const NodePoolAllocator<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const NodePoolAllocator<U>&) const {
    return false;
  }

 private:
  struct Pool {
    std::vector<void*> free;
    ~Pool() {
      for (void* p : free) ::operator delete(p);
    }
  };
  static Pool& pool() {
    thread_local Pool p;
    return p;
  }
};

}  // namespace tasklens::replay
