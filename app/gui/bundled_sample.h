#pragma once
// The bundled sample (resources/samples/projectx-before.json.gz) next to the executable's
// install or in the source tree; empty if not found.
#include <QString>

namespace contend::gui {

QString bundledSample();

}  // namespace contend::gui
