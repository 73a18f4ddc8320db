#pragma once
// What the app's two loaders off the GUI thread share (LoadThread: one trace; ClusterLoadThread:
// a cluster): the path they open, the cancel flag the work polls between read chunks and
// analysis stages, and the two ways a load ends without a result. Each loader adds its own
// progress and done signals (their payloads differ) and emits exactly one of done / failed /
// cancelled.
#include <atomic>
#include <functional>

#include <QString>
#include <QThread>

namespace contend::gui {

class LoadWorker : public QThread {
    Q_OBJECT
  public:
    // Asks the work to stop; it does within a fraction of a second and emits cancelled().
    void cancel() { m_cancel = true; }
    bool isCancelled() const { return m_cancel; }
    const QString& path() const { return m_path; }

  signals:
    void failed(const QString& message);
    void cancelled();

  protected:
    LoadWorker(QString path, QObject* parent) : QThread(parent), m_path(std::move(path)) {}
    // For core's cancellable work (keepGoing callbacks): false once cancel() was called.
    std::function<bool()> keepGoing() const {
        return [this] { return !m_cancel.load(); };
    }

  private:
    QString m_path;
    std::atomic<bool> m_cancel{false};
};

}  // namespace contend::gui
