// What each field of an Event means for each Kind: the codec uses the slot classes to choose an
// encoding, `tasklens dump` uses the names. docs/FORMAT.md is written from this table.
#pragma once

#include <cstdint>
#include <string_view>

#include "format/event.h"

namespace tasklens::format {

// How a 64-bit field is predicted and encoded on disk.
enum class Slot : uint8_t {
  kNone,      // unused for this kind
  kRaw,       // unsigned varint
  kSigned,    // zigzag varint
  kTask,      // task id, predicted from recent task ids
  kParallel,  // parallel region id, predicted from the previous one
  kAddr,      // data address or wait id, predicted from the previous one
  kCode,      // code address, predicted from recent code addresses
};

struct KindLayout {
  std::string_view name;  // the event name in dumps, e.g. "task_create"
  // Names of the small fields in dumps; empty when the kind does not use the field.
  std::string_view op, sub, flags;
  Slot a, b, c;
  std::string_view a_name, b_name, c_name;
};

// The layout of `kind`; kInvalid's layout for numbers out of range.
const KindLayout& layout(Kind kind);

// Names of enumerated values, for dumps and reports ("?" when unknown).
std::string_view task_status_name(uint8_t status);
std::string_view sync_kind_name(uint16_t kind);
std::string_view work_type_name(uint16_t type);
std::string_view mutex_kind_name(uint16_t kind);
std::string_view dependence_type_name(uint8_t type);
std::string_view endpoint_name(uint8_t endpoint);
std::string_view thread_type_name(uint16_t type);

}  // namespace tasklens::format
