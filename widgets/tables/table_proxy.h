#pragma once
// Sort and filter for the report tables: sorts by the models' raw values (SortRole), filters
// rows whose text in any column contains the filter words (all of them, any order, case
// insensitive), and optionally keeps only one group (a signature's operator type).
#include <QSortFilterProxyModel>
#include <QStringList>

namespace contend::widgets {

class TableProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit TableProxy(QObject* parent = nullptr);
    void setFilterWords(const QString& text);
    QString filterWords() const { return m_words.join(' '); }
    // Only rows whose GroupRole equals `group`; empty for all.
    void setGroup(const QString& group);
    QString group() const { return m_group; }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    QStringList m_words;
    QString m_group;
};

}  // namespace contend::widgets
