#include "widgets/timeline/args_fetcher.h"

#include <QMetaType>

namespace contend::widgets {

void ArgsWorker::fetch(contend::TracePtr trace, quint32 slice, quint64 ticket) {
    if (!trace || ticket != m_latest->load()) return;  // overtaken while queued
    const std::string raw = trace->rawEvent(slice);
    emit fetched(slice, ticket, QString::fromStdString(raw));
}

ArgsFetcher::ArgsFetcher(QObject* parent) : QObject(parent) {
    qRegisterMetaType<contend::TracePtr>("contend::TracePtr");
    auto* worker = new ArgsWorker(m_latest);
    worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, worker, &QObject::deleteLater);
    connect(this, &ArgsFetcher::requested, worker, &ArgsWorker::fetch, Qt::QueuedConnection);
    connect(
        worker, &ArgsWorker::fetched, this,
        [this](quint32 slice, quint64 ticket, const QString& json) {
            if (ticket < m_traceTicket) return;  // a previous trace's answer
            const QString text = json.isNull() ? QStringLiteral("") : json;
            m_cache.insert(slice, text);
            emit ready(slice, text);
        },
        Qt::QueuedConnection);
    m_thread.setObjectName(QStringLiteral("contend-args"));
    m_thread.start(QThread::LowPriority);
}

ArgsFetcher::~ArgsFetcher() {
    m_latest->store(~quint64{0});
    m_thread.quit();
    m_thread.wait();
}

void ArgsFetcher::request(const TracePtr& trace, std::uint32_t slice) {
    if (!trace) return;
    if (trace.get() != m_trace) {
        m_cache.clear();
        m_trace = trace.get();
        m_traceTicket = m_ticket + 1;
    }
    if (m_cache.contains(slice)) return;
    const quint64 ticket = ++m_ticket;
    m_latest->store(ticket);
    emit requested(trace, slice, ticket);
}

QString ArgsFetcher::cached(std::uint32_t slice) const {
    auto it = m_cache.find(slice);
    return it == m_cache.end() ? QString() : *it;
}

void ArgsFetcher::clear() {
    m_cache.clear();
    m_trace = nullptr;
    m_traceTicket = m_ticket + 1;
}

}  // namespace contend::widgets
