#include "core/analysis/model/window_list.h"

namespace contend {

std::vector<ContentionWindow>& WindowList::edit() {
    if (m_source) {
        std::vector<ContentionWindow> all = m_readers.use_count() == 1 ? m_source->take() : m_source->windows();
        *this = WindowList(std::move(all));
    }
    return m_owned;
}

}  // namespace contend
