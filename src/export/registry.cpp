// The export formats: one row per format. Each format's ExportFormat is defined beside its
// converter; adding a format is its file plus a row here.
#include <algorithm>

#include "export/export.h"

namespace tasklens::exports {

extern const ExportFormat kOtf2Format, kParaverFormat, kPerfettoFormat, kPerfettoJsonFormat,
    kDotFormat;

const std::vector<const ExportFormat*>& export_formats() {
  static const std::vector<const ExportFormat*> formats = {
      &kOtf2Format,
      &kParaverFormat,
      &kPerfettoFormat,
      &kPerfettoJsonFormat,
      &kDotFormat,
  };
  return formats;
}

const ExportFormat* find_export_format(std::string_view name) {
  for (const ExportFormat* f : export_formats()) {
    if (f->name == name) return f;
    for (std::string_view alias : f->aliases) {
      if (!alias.empty() && alias == name) return f;
    }
  }
  return nullptr;
}

const ExportFormat* export_format_for_path(std::string_view path) {
  for (const ExportFormat* f : export_formats()) {
    for (std::string_view ext : f->extensions) {
      if (!ext.empty() && path.size() > ext.size() &&
          path.substr(path.size() - ext.size()) == ext) {
        return f;
      }
    }
  }
  return nullptr;
}

std::string export_format_names(std::string_view separator) {
  std::string names;
  for (const ExportFormat* f : export_formats()) {
    if (!names.empty()) names += separator;
    names += f->name;
  }
  return names;
}

}  // namespace tasklens::exports
