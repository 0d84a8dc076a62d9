// The SVG chart of `tasklens compare -o`, written by hand.
#include "report/scaling_chart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "report/overheads_section.h"
#include "report/text_format.h"

namespace tasklens::report {
namespace {

using analysis::Cost;

constexpr double kWidth = 1000, kHeight = 540;
constexpr double kTop = 60, kPlotHeight = 330;
constexpr double kLeftX = 100, kLeftWidth = 460;
constexpr double kRightX = 680, kRightWidth = 290;
constexpr size_t kMaxRegions = 4;

struct Layer {
  const char* label;
  const char* color;
};

// Bottom to top: work, the five classes, the preempted time (analysis::Cost's order), then the
// time outside parallel regions.
constexpr Layer kLayers[] = {{"work", "#4c9a2a"},
                             {"synchronization", "#d62728"},
                             {"imbalance", "#ff7f0e"},
                             {"limited parallelism", "#9467bd"},
                             {"thread management", "#1f77b4"},
                             {"task management", "#8c564b"},
                             {"preempted (off the CPU)", "#9575cd"},
                             {"serial (outside parallel regions)", "#c7c7c7"}};
static_assert(std::size(kLayers) == analysis::kCostCount + 1);
constexpr const char* kRegionColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd"};

uint64_t layer_ns(const analysis::ScalingPoint& p, size_t layer) {
  return layer < analysis::kCostCount ? p.cost.ns[layer] : p.serial_ns;
}

// A tick label: "400 ms", "2.5 s", "0".
std::string tick_label(double ns) {
  if (ns <= 0) return "0";
  static const std::pair<double, const char*> kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
  for (const auto& [scale, unit] : kUnits) {
    if (ns >= scale) return fmt::format("{:g} {}", ns / scale, unit);
  }
  return fmt::format("{:g} ns", ns);
}

// The smallest 1, 2, 2.5 or 5 x 10^k at or above v (v > 0).
double nice_step(double v) {
  double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * p >= v) return m * p;
  }
  return 10 * p;
}

// A y axis from 0 up to at least `max_ns`, with its grid lines and labels.
struct Axis {
  double top_ns = 1, step_ns = 1;
  explicit Axis(double max_ns) {
    if (max_ns <= 0) max_ns = 1;
    step_ns = nice_step(max_ns / 5);
    top_ns = step_ns * std::ceil(max_ns / step_ns);
  }
  double y(double ns) const { return kTop + kPlotHeight * (1 - ns / top_ns); }
};

void axis_svg(std::string& out, const Axis& a, double x0, double width, const char* label) {
  for (double v = 0; v <= a.top_ns * 1.0001; v += a.step_ns) {
    double y = a.y(v);
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e0e0e0\"/>\n", x0,
        y, x0 + width, y);
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" font-size=\"11\">{}</text>\n",
        x0 - 6, y + 4, tick_label(v));
  }
  out += fmt::format(
      "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#333\"/>\n", x0,
      kTop, kTop + kPlotHeight);
  out += fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#333\"/>\n", x0,
      kTop + kPlotHeight, x0 + width, kTop + kPlotHeight);
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"12\" "
      "transform=\"rotate(-90 {:.1f} {:.1f})\">{}</text>\n",
      x0 - 64, kTop + kPlotHeight / 2, x0 - 64, kTop + kPlotHeight / 2, label);
}

// Thread counts along the x axis, one band per run.
void threads_axis_svg(std::string& out, const analysis::Scaling& s, double x0, double width) {
  double band = width / double(s.runs.size());
  for (size_t i = 0; i < s.runs.size(); ++i) {
    out += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"12\">{}</text>\n",
        x0 + band * (double(i) + 0.5), kTop + kPlotHeight + 18, s.runs[i].threads);
  }
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"12\">threads</text>\n",
      x0 + width / 2, kTop + kPlotHeight + 36);
}

void bars_svg(std::string& out, const analysis::Scaling& s) {
  double max_ns = 0;
  for (const auto& p : s.runs) max_ns = std::max(max_ns, double(p.total_ns));
  Axis axis(max_ns);
  axis_svg(out, axis, kLeftX, kLeftWidth, "time accumulated over threads");
  double band = kLeftWidth / double(s.runs.size());
  for (size_t i = 0; i < s.runs.size(); ++i) {
    const auto& p = s.runs[i];
    double x = kLeftX + band * (double(i) + 0.2), w = band * 0.6, base = 0;
    for (size_t layer = 0; layer < std::size(kLayers); ++layer) {
      double ns = double(layer_ns(p, layer));
      if (ns <= 0) continue;
      double y1 = axis.y(base + ns), y0 = axis.y(base);
      out += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\">"
          "<title>{} threads, {}: {}</title></rect>\n",
          x, y1, w, std::max(0.0, y0 - y1), kLayers[layer].color, p.threads, kLayers[layer].label,
          xml_escape(duration(uint64_t(ns))));
      base += ns;
    }
  }
  if (!s.runs.empty()) {  // perfect scaling: every bar as high as the first
    double y = axis.y(double(s.runs.front().total_ns));
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#000\" "
        "stroke-dasharray=\"6 4\"/>\n"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\" font-size=\"11\">perfect "
        "scaling</text>\n",
        kLeftX, y, kLeftX + kLeftWidth, y, kLeftX + kLeftWidth, y - 4);
  }
  threads_axis_svg(out, s, kLeftX, kLeftWidth);
  double lx = kLeftX - 40, ly = kTop + kPlotHeight + 62;
  for (size_t layer = 0; layer < std::size(kLayers); ++layer) {
    double x = lx + double(layer % 3) * 170, y = ly + double(layer / 3) * 18;
    out += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"12\" height=\"12\" fill=\"{}\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">{}</text>\n",
        x, y - 10, kLayers[layer].color, x + 16, y, kLayers[layer].label);
  }
}

void regions_svg(std::string& out, const analysis::Scaling& s) {
  size_t n = std::min(kMaxRegions, s.regions.size());
  double max_ns = 0;
  for (size_t r = 0; r < n; ++r) {
    for (const auto& pt : s.regions[r].runs) {
      max_ns = std::max({max_ns, double(pt.cost[Cost::kWork]), double(pt.cost.overhead_ns())});
    }
  }
  Axis axis(max_ns);
  axis_svg(out, axis, kRightX, kRightWidth, "per region, accumulated over threads");
  double band = kRightWidth / double(s.runs.size());
  for (size_t r = 0; r < n; ++r) {
    const char* color = kRegionColors[r];
    for (int overhead = 0; overhead < 2; ++overhead) {
      std::string points;
      for (size_t i = 0; i < s.runs.size(); ++i) {
        const auto& pt = s.regions[r].runs[i];
        if (!pt.present) continue;
        double ns = double(overhead ? pt.cost.overhead_ns() : pt.cost[Cost::kWork]);
        double x = kRightX + band * (double(i) + 0.5), y = axis.y(ns);
        points += fmt::format("{:.1f},{:.1f} ", x, y);
        out += fmt::format(
            "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"><title>{} {} threads, "
            "{}: {}</title></circle>\n",
            x, y, color, region_id(r), s.runs[i].threads, overhead ? "overhead" : "work",
            xml_escape(duration(uint64_t(ns))));
      }
      out += fmt::format(
          "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", points,
          color, overhead ? " stroke-dasharray=\"5 4\"" : "");
    }
    out += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" stroke=\"{3}\" "
        "stroke-width=\"2\"/><text x=\"{4:.1f}\" y=\"{5:.1f}\" font-size=\"11\">{6} {7}</text>\n",
        kRightX - 40, kTop + kPlotHeight + 58 + 16 * double(r), kRightX - 20, color, kRightX - 14,
        kTop + kPlotHeight + 62 + 16 * double(r), region_id(r), xml_escape(s.regions[r].key));
  }
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\">solid: work; dashed: overhead (all "
      "classes)</text>\n",
      kRightX - 40, kTop + kPlotHeight + 66 + 16 * double(n));
  threads_axis_svg(out, s, kRightX, kRightWidth);
}

}  // namespace

std::string scaling_svg(const analysis::Scaling& s, const std::string& title) {
  std::string out = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\">\n"
      "<title>{2}</title>\n"
      "<desc>tasklens compare: time accumulated over threads per overhead class vs thread count "
      "(ompP, Fürlinger and Gerndt, Fig. 6), and work and overhead per parallel region (Fig. 7)</desc>\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
      "<text x=\"{3}\" y=\"26\" text-anchor=\"middle\" font-size=\"15\" "
      "font-weight=\"bold\">{2}</text>\n",
      kWidth, kHeight, xml_escape(title), kWidth / 2);
  if (!s.runs.empty()) {
    bars_svg(out, s);
    if (!s.regions.empty()) regions_svg(out, s);
  }
  return out + "</svg>\n";
}

}  // namespace tasklens::report
