// The typed event views (format/event_views.h) against the kind table (format/kinds.h): for every
// kind, the view names exactly the fields the table names, each read from the slot the table says,
// and building an event from a view gives back the record it was read from.
#include "format/event_views.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "format/kinds.h"

namespace tasklens::format {
namespace {

// An event of `kind` with a different value in every slot (and every byte of the wide ones).
Event distinct(Kind kind) {
  Event e{};
  e.time = 123456789;
  e.kind = kind;
  e.op = 0x5a;
  e.sub = 0x6b7c;
  e.flags = 0x8d9eafb0;
  e.a = 0xa1a2a3a4a5a6a7a8;
  e.b = 0xb1b2b3b4b5b6b7b8;
  e.c = 0xc1c2c3c4c5c6c7c8;
  return e;
}

// kinds.h's name for slot `in` of `kind` ("" when the kind does not use it).
std::string_view table_name(Kind kind, ev::In in) {
  const KindLayout& l = layout(kind);
  switch (in) {
    case ev::In::kOp: return l.op;
    case ev::In::kSub: return l.sub;
    case ev::In::kFlags: return l.flags;
    case ev::In::kA: return l.a == Slot::kNone ? "" : l.a_name;
    case ev::In::kB: return l.b == Slot::kNone ? "" : l.b_name;
    case ev::In::kC: return l.c == Slot::kNone ? "" : l.c_name;
  }
  return "";
}

// Checks view V against the table for `kind`.
template <class V>
void check_view(Kind kind) {
  SCOPED_TRACE(std::string(layout(kind).name));
  ASSERT_TRUE(V::is(kind));
  const Event e = distinct(kind);
  const V v = V::of(e);
  size_t used = 0;
  std::apply(
      [&](const auto&... f) {
        auto one = [&](const auto& fld) {
          using T = std::remove_reference_t<decltype(v.*fld.member)>;
          EXPECT_EQ(fld.name, table_name(kind, fld.in)) << "field " << fld.name;
          EXPECT_EQ(uint64_t(v.*fld.member), uint64_t(T(ev::slot(e, fld.in)))) << fld.name;
          // Wide enough for the slot: nothing of the record is cut off.
          EXPECT_EQ(uint64_t(v.*fld.member), ev::slot(e, fld.in)) << fld.name;
          ++used;
        };
        (one(f), ...);
      },
      V::fields());
  // Every slot the table names is in the view.
  size_t named = 0;
  for (ev::In in : {ev::In::kOp, ev::In::kSub, ev::In::kFlags, ev::In::kA, ev::In::kB, ev::In::kC})
    named += !table_name(kind, in).empty();
  EXPECT_EQ(used, named);

  // Encoding the view gives the record back in the used slots and zeros elsewhere.
  Event back = v.event(e.time, kind);
  EXPECT_EQ(back.time, e.time);
  EXPECT_EQ(back.kind, kind);
  for (ev::In in : {ev::In::kOp, ev::In::kSub, ev::In::kFlags, ev::In::kA, ev::In::kB, ev::In::kC})
    EXPECT_EQ(ev::slot(back, in), table_name(kind, in).empty() ? 0 : ev::slot(e, in));
}

template <size_t... I>
void check_per_kind(std::index_sequence<I...>) {
  (check_view<std::tuple_element_t<I, ev::PerKind>>(Kind(I + 1)), ...);
  // The list is in the order of Kind.
  EXPECT_TRUE(((std::tuple_element_t<I, ev::PerKind>::kKind == Kind(I + 1)) && ...));
}

TEST(EventViews, EveryKindReadsTheFieldsTheKindTableNames) {
  check_per_kind(std::make_index_sequence<std::tuple_size_v<ev::PerKind>>());
}

template <class V>
void check_group() {
  for (Kind k : V::kKinds) {
    // A group view reads a subset of each kind's fields, each under the table's name.
    const Event e = distinct(k);
    const V v = V::of(e);
    auto one = [&](const auto& f) {
      EXPECT_EQ(f.name, table_name(k, f.in));
      EXPECT_EQ(uint64_t(v.*f.member), ev::slot(e, f.in));
    };
    std::apply([&](const auto&... f) { (one(f), ...); }, V::fields());
  }
}

TEST(EventViews, GroupViewsReadTheSharedFieldsOfEachOfTheirKinds) {
  check_group<ev::SyncAny>();
  check_group<ev::MutexAny>();
  check_group<ev::ConstructAny>();
  check_group<ev::EndpointAny>();
  // EndpointAny names every kind that has an endpoint.
  for (size_t k = 1; k < size_t(Kind::kCount); ++k)
    EXPECT_EQ(ev::EndpointAny::is(Kind(k)), layout(Kind(k)).op == "endpoint") << k;
  EXPECT_FALSE(ev::SyncAny::is(Kind::kWork));
  EXPECT_TRUE(ev::MutexAny::is(Kind::kLockDestroy));
}

TEST(EventViews, ViewsAreConstexprDecoders) {
  constexpr Event e = [] {
    Event x{};
    x.kind = Kind::kTaskCreate;
    x.op = 1;
    x.a = 7;
    x.b = 3;
    x.c = 0x400;
    return x;
  }();
  static_assert(ev::TaskCreate::of(e).parent == 3);
  static_assert(ev::TaskCreate::of(e).has_deps == 1);
  static_assert(ev::TaskCreate::of(e).event(5).a == 7);
  constexpr Event p = [] {
    Event x{};
    x.kind = Kind::kUserParam;
    x.b = uint64_t(int64_t(-2));
    return x;
  }();
  static_assert(ev::UserParam::of(p).value == -2);
  SUCCEED();
}

}  // namespace
}  // namespace tasklens::format
