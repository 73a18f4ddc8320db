#include "widgets/common/view_state.h"

namespace contend::widgets {

void ZoomControl::setRange(qint64 t0, qint64 t1) {
    if (m_set && t0 == m_t0 && t1 == m_t1) return;
    m_t0 = t0;
    m_t1 = t1;
    m_set = true;
    emit rangeChanged(t0, t1);
}

void SelectionControl::select(quint32 slice) {
    m_slice = slice;
    emit selectionChanged(slice);
}

}  // namespace contend::widgets
