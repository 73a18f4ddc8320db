#pragma once
// Reads an event's original JSON (Trace::rawEvent) on its own thread: for a gzip file that means
// inflating up to the event, which can take a while, and a tooltip must not wait for it.
// Results come back as a queued signal, so a receiver that is gone is simply not called; a
// request overtaken by a newer one is skipped rather than queued behind.
#include <atomic>
#include <memory>

#include <QHash>
#include <QObject>
#include <QString>
#include <QThread>

#include "core/trace/trace.h"

namespace contend::widgets {

class ArgsWorker : public QObject {
    Q_OBJECT
  public:
    explicit ArgsWorker(std::shared_ptr<std::atomic<quint64>> latest) : m_latest(std::move(latest)) {}
  public slots:
    void fetch(contend::TracePtr trace, quint32 slice, quint64 ticket);
  signals:
    void fetched(quint32 slice, quint64 ticket, const QString& json);

  private:
    std::shared_ptr<std::atomic<quint64>> m_latest;
};

class ArgsFetcher : public QObject {
    Q_OBJECT
  public:
    explicit ArgsFetcher(QObject* parent = nullptr);
    ~ArgsFetcher() override;
    // Asks for the slice's raw event; `ready` follows unless a newer request or a new trace
    // overtakes it.
    void request(const TracePtr& trace, std::uint32_t slice);
    // The cached text ("" when the file has no text for it), or a null QString when not fetched yet.
    QString cached(std::uint32_t slice) const;
    void clear();

  signals:
    void ready(quint32 slice, const QString& json);
    void requested(contend::TracePtr trace, quint32 slice, quint64 ticket);

  private:
    QThread m_thread;
    std::shared_ptr<std::atomic<quint64>> m_latest = std::make_shared<std::atomic<quint64>>(0);
    quint64 m_ticket = 0;
    quint64 m_traceTicket = 0;  // first ticket issued for the current trace
    const Trace* m_trace = nullptr;
    QHash<std::uint32_t, QString> m_cache;
};

}  // namespace contend::widgets
