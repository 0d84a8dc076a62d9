// fmt's compiled part (what libfmt.so holds: vformat, vprint, the float formatting), built into
// the tasklens executable from the installed fmt headers, as fmt's own header-only mode does.
// With it the executable needs neither libfmt.so nor, through it, libstdc++.so: a shorter start
// for every `tasklens run` (src/cli/CMakeLists.txt). Only the instantiations tasklens uses.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template FMT_API auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template FMT_API auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;
template FMT_API auto thousands_sep_impl(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
}  // namespace detail
FMT_END_NAMESPACE
