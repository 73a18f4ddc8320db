#pragma once
// What the app's benches (bench_render, bench_rethreshold, bench_open) share: the median they
// print, and settings of their own so a bench runs at the defaults, not the user's saved
// thresholds, tracks or layout.
#include <vector>

#include <QString>

namespace contend::gui {

// The median of `v` (the mean of the middle two for an even count); 0 when empty.
double benchMedian(std::vector<double> v);
// Points the app's settings (QSettings, user scope, native and ini formats) at `dir`.
void useSettingsIn(const QString& dir);

}  // namespace contend::gui
