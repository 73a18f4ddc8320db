#pragma once
// Colours shared by the views, as 0xAARRGGBB (the layout of QRgb) so the pure draw list can carry
// them without Qt. Operators are coloured by name (stable hash, muted when a report is shown so
// flagged ones stand out), flagged operators by score, causes and resources by a fixed palette
// that the timeline outlines, the heatmap rows and the breakdown bars all share.
#include <cstdint>
#include <string_view>

#include "core/analysis/model/report.h"

namespace contend::widgets {

using Argb = std::uint32_t;

Argb argb(int r, int g, int b, int a = 255);
Argb fromHsl(double hueDeg, double sat, double light, int alpha = 255);

// Stable pastel colour of an operator name (same name, same colour, in every run).
Argb nameColor(std::string_view name);
// The same, desaturated and lightened: unflagged operators when a report is shown.
Argb mutedNameColor(std::string_view name);
// Flagged operator fill: orange at the threshold, deep red at 3x the threshold and beyond.
Argb scoreColor(double score, double coefficient);
// Outline / legend colour of a cause or resource.
Argb resourceColor(Resource r);
// Fill of a folded mark that hides no flagged operator.
inline constexpr Argb kFoldColor = 0xFF9AA3AD;
inline constexpr Argb kSelectionColor = 0xFF1565C0;
// Marked slices (a contention pattern's runs beside its partner, on the timeline and in the
// breakdown's histogram): a violet no cause, score or selection uses.
inline constexpr Argb kMarkColor = 0xFFC51BE0;

}  // namespace contend::widgets
