#include "widgets/compare/gain_check_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/compare/gain_check_model.h"

namespace contend::widgets {

namespace {

// The core's text with a capital letter, as a sentence.
QString sentenceOf(const std::string& text) {
    QString s = QString::fromStdString(text);
    if (!s.isEmpty()) s[0] = s[0].toUpper();
    if (!s.isEmpty() && !s.endsWith(QLatin1Char('.'))) s += QLatin1Char('.');
    return s;
}

}  // namespace

GainCheckView::GainCheckView(QWidget* parent)
    : QWidget(parent), m_sentence(new QLabel(this)), m_table(new QTableView(this)), m_model(new GainCheckModel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_sentence->setWordWrap(true);
    m_sentence->setTextFormat(Qt::RichText);
    m_sentence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_sentence->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(m_sentence);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    // The findings in words take the room; the numbers get their width.
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(GainCheckModel::Findings, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    layout->addWidget(m_table, 1);
    auto* legend = new QLabel(
        tr("Predicted: the gain the baseline's what-if gave the findings the comparison no longer has (each "
           "resource's whole-resource gain times the share of its extra wait that was resolved). Realised: the "
           "baseline's sum of iteration times less the comparison's, for the run as a whole."),
        this);
    legend->setWordWrap(true);
    legend->setStyleSheet(QStringLiteral("color: #555; padding: 2px 4px"));
    layout->addWidget(legend);
    setResult(nullptr);
}

void GainCheckView::setResult(std::shared_ptr<const CompareResult> result) {
    const CompareResult* r = result.get();
    m_model->setResult(std::move(result));
    if (!r) {
        m_plain = tr("No comparison yet.");
        m_sentence->setStyleSheet(QString());
    } else if (!r->gain.available) {
        m_plain = tr("The baseline carries no what-if (a saved report/1, or a trace without device operators), so "
                     "nothing was predicted; end to end the comparison is %1.")
                      .arg(realisedText(r->gain.realisedNs));
        m_sentence->setStyleSheet(QString());
    } else {
        m_plain = sentenceOf(r->gain.text);
        // Resolved but not faster is what this view is for: it must not read as a success.
        m_sentence->setStyleSheet(r->gain.notFaster ? QStringLiteral("QLabel { background: #FFF3E0; color: #8A3B00; }")
                                                    : QString());
    }
    const bool emphasise = r && r->gain.available && r->gain.notFaster;
    m_sentence->setText(emphasise ? QStringLiteral("<b>%1</b>").arg(m_plain.toHtmlEscaped()) : m_plain.toHtmlEscaped());
    m_table->resizeColumnsToContents();
}

QString GainCheckView::sentence() const { return m_plain; }

}  // namespace contend::widgets
