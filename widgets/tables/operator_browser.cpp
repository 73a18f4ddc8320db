#include "widgets/tables/operator_browser.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/common/view_colors.h"
#include "widgets/tables/iteration_model.h"
#include "widgets/tables/name_stats_model.h"
#include "widgets/tables/occurrence_model.h"
#include "widgets/tables/signature_model.h"
#include "widgets/tables/table_panel.h"
#include "widgets/tables/type_model.h"

namespace contend::widgets {

OperatorBrowser::OperatorBrowser(QWidget* parent)
    : QWidget(parent),
      m_signatures(new SignatureModel(this)),
      m_types(new TypeModel(this)),
      m_iterations(new IterationModel(this)),
      m_occurrences(new OccurrenceModel(this)),
      m_names(new NameStatsModel(this)) {
    m_signaturePanel = new TablePanel(m_signatures, tr("Filter signatures…"), this);
    m_typePanel = new TablePanel(m_types, tr("Filter types…"), this);
    m_iterationPanel = new TablePanel(m_iterations, tr("Filter iterations…"), this);
    m_namePanel = new TablePanel(m_names, tr("Filter operators…"), this);
    m_typeSignaturePanel = new TablePanel(m_signatures, tr("Filter signatures…"), this);
    m_occurrencePanel = new TablePanel(m_occurrences, tr("Filter occurrences…"), this);
    m_signaturePanel->sortBy(SignatureModel::ExtraWait, Qt::DescendingOrder);
    m_typeSignaturePanel->sortBy(SignatureModel::ExtraWait, Qt::DescendingOrder);
    m_typePanel->sortBy(TypeModel::ExtraWait, Qt::DescendingOrder);
    m_namePanel->sortBy(NameStatsModel::Total, Qt::DescendingOrder);

    m_stack = new QStackedWidget(this);
    for (TablePanel* p :
         {m_signaturePanel, m_typePanel, m_iterationPanel, m_namePanel, m_typeSignaturePanel, m_occurrencePanel})
        m_stack->addWidget(p);

    m_back = new QToolButton(this);
    m_back->setText(tr("◀ Back"));
    m_back->setToolTip(tr("Up one level (Backspace)"));
    m_back->setShortcut(Qt::Key_Backspace);
    m_crumbs = new QLabel(this);
    m_crumbs->setTextFormat(Qt::RichText);
    m_crumbs->setTextInteractionFlags(Qt::LinksAccessibleByMouse);
    // A long breadcrumb must not widen the dock (and squeeze the panes beside it): it is cut,
    // and the whole path is in the tooltip.
    m_crumbs->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_crumbs->setMinimumWidth(0);
    m_groupingBox = new QComboBox(this);
    m_groupingBox->addItems({tr("Per signature"), tr("Per operator type"), tr("Per iteration")});
    m_groupingBox->setToolTip(tr("How the whole network is listed"));

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(2, 2, 2, 0);
    bar->addWidget(m_back);
    bar->addWidget(m_crumbs, 1);
    bar->addWidget(m_groupingBox);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addLayout(bar);
    box->addWidget(m_stack, 1);

    connect(m_back, &QToolButton::clicked, this, &OperatorBrowser::back);
    connect(m_crumbs, &QLabel::linkActivated, this, [this](const QString& link) { goTo(link.toInt()); });
    connect(m_groupingBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        setGrouping(static_cast<Grouping>(i));
        emit groupingChanged(i);
    });

    // Signatures: pick shows the breakdown, open lists the occurrences.
    for (TablePanel* p : {m_signaturePanel, m_typeSignaturePanel}) {
        connect(p, &TablePanel::rowPicked, this, [this](const QModelIndex& i) {
            emit signaturePicked(static_cast<quint32>(i.data(IdRole).toLongLong()));
        });
        connect(p, &TablePanel::rowOpened, this, [this](const QModelIndex& i) {
            openSignature(static_cast<std::uint32_t>(i.data(IdRole).toLongLong()));
        });
    }
    connect(m_typePanel, &TablePanel::rowOpened, this,
            [this](const QModelIndex& i) { openType(i.data(GroupRole).toString()); });
    auto span = [this](const QModelIndex& i) {
        const qint64 a = i.data(StartRole).toLongLong(), b = i.data(EndRole).toLongLong();
        if (a >= 0 && b >= a) emit spanPicked(a, b);
    };
    connect(m_iterationPanel, &TablePanel::rowPicked, this, span);
    connect(m_iterationPanel, &TablePanel::rowOpened, this, span);
    connect(m_namePanel, &TablePanel::rowOpened, this,
            [this](const QModelIndex& i) { openName(static_cast<StringId>(i.data(IdRole).toLongLong())); });
    auto occurrence = [this](const QModelIndex& i) {
        const quint32 s = i.data(SliceRole).toUInt();
        if (s != kNone) emit occurrencePicked(s);
    };
    connect(m_occurrencePanel, &TablePanel::rowPicked, this, occurrence);
    connect(m_occurrencePanel, &TablePanel::rowOpened, this, occurrence);

    m_levels.push_back(Level{});
    showLevel();
}

OperatorBrowser::~OperatorBrowser() = default;

void OperatorBrowser::setTrace(TracePtr trace) {
    m_trace = std::move(trace);
    m_report.reset();
    m_slices.reset();
    m_names->setTrace(m_trace);
    m_signatures->setReport(nullptr);
    m_types->setReport(nullptr);
    m_iterations->setReport(m_trace, nullptr);
    m_occurrences->clear();
    m_levels.assign(1, Level{});
    showLevel();
}

void OperatorBrowser::setReport(std::shared_ptr<const Report> report, SliceViewPtr slices) {
    const bool first = !m_report;
    m_report = std::move(report);
    m_slices = std::move(slices);
    m_signatures->setReport(m_report);
    m_types->setReport(m_report);
    m_iterations->setReport(m_trace, m_report);
    if (first) {
        // Names were listed without a report; the drill-down starts over from the signatures.
        m_levels.assign(1, Level{});
    } else if (level() == LevelKind::Occurrences && m_levels.back().signature != kNone) {
        m_occurrences->updateReport(m_report);
    }
    showLevel();
}

void OperatorBrowser::setGrouping(Grouping g) {
    m_grouping = g;
    if (m_groupingBox->currentIndex() != static_cast<int>(g)) {
        const QSignalBlocker block(m_groupingBox);
        m_groupingBox->setCurrentIndex(static_cast<int>(g));
    }
    m_levels.resize(1);
    showLevel();
}

QString OperatorBrowser::signatureTitle(std::uint32_t signature) const {
    if (!m_report || signature >= m_report->operators.size()) return tr("signature %1").arg(signature);
    const SignatureStats& s = m_report->operators[signature];
    return QString::fromStdString(s.signature.empty() ? s.name : s.signature);
}

void OperatorBrowser::openType(const QString& type) {
    Level l;
    l.kind = LevelKind::TypeSignatures;
    l.type = type;
    l.title = type;
    m_levels.push_back(l);
    navigate();
}

void OperatorBrowser::openSignature(std::uint32_t signature) {
    if (!m_report || signature >= m_report->operators.size()) return;
    Level l;
    l.kind = LevelKind::Occurrences;
    l.signature = signature;
    l.title = signatureTitle(signature);
    m_occurrences->setSignature(m_trace, m_report, m_slices, signature);
    if (level() == LevelKind::Occurrences) m_levels.pop_back();
    m_levels.push_back(l);
    m_occurrencePanel->filterEdit()->clear();
    navigate();
    emit signaturePicked(signature);
}

void OperatorBrowser::openName(StringId name) {
    if (!m_trace) return;
    Level l;
    l.kind = LevelKind::Occurrences;
    l.name = name;
    const std::string_view n = m_trace->str(name);
    l.title = QString::fromUtf8(n.data(), static_cast<qsizetype>(n.size()));
    m_occurrences->setName(m_trace, name);
    if (level() == LevelKind::Occurrences) m_levels.pop_back();
    m_levels.push_back(l);
    m_occurrencePanel->filterEdit()->clear();
    navigate();
}

void OperatorBrowser::back() {
    if (m_levels.size() > 1) goTo(depth() - 1);
}

void OperatorBrowser::goTo(int d) {
    if (d < 0 || d >= static_cast<int>(m_levels.size())) return;
    m_levels.resize(static_cast<std::size_t>(d) + 1);
    navigate();
}

TablePanel* OperatorBrowser::currentPanel() const { return static_cast<TablePanel*>(m_stack->currentWidget()); }

QString OperatorBrowser::breadcrumb() const {
    QStringList parts;
    for (const Level& l : m_levels) parts << (l.kind == LevelKind::Root ? tr("Network") : l.title);
    return parts.join(QStringLiteral(" › "));
}

void OperatorBrowser::showLevel() {
    const Level& l = m_levels.back();
    TablePanel* page = nullptr;
    switch (l.kind) {
    case LevelKind::Root:
        if (!m_report)
            page = m_namePanel;
        else if (m_grouping == Grouping::Type)
            page = m_typePanel;
        else if (m_grouping == Grouping::Iteration)
            page = m_iterationPanel;
        else
            page = m_signaturePanel;
        break;
    case LevelKind::TypeSignatures:
        m_typeSignaturePanel->proxy()->setGroup(l.type);
        page = m_typeSignaturePanel;
        break;
    case LevelKind::Occurrences: page = m_occurrencePanel; break;
    }
    m_stack->setCurrentWidget(page);
    m_back->setEnabled(m_levels.size() > 1);
    m_groupingBox->setEnabled(m_report != nullptr);
    // Breadcrumb: every level but the last is a link back to it.
    QStringList parts;
    for (std::size_t i = 0; i < m_levels.size(); ++i) {
        QString title =
            m_levels[i].kind == LevelKind::Root ? (m_report ? tr("Network") : tr("Operators")) : m_levels[i].title;
        if (title.size() > 48) title = title.left(45) + QStringLiteral("…");
        title = title.toHtmlEscaped();
        if (i + 1 < m_levels.size())
            parts << QStringLiteral("<a href=\"%1\">%2</a>").arg(i).arg(title);
        else
            parts << QStringLiteral("<b>%1</b>").arg(title);
    }
    QString text = parts.join(QStringLiteral(" › "));
    if (l.kind == LevelKind::Occurrences)
        text += tr(" &nbsp;<span style='color:#666'>(%1 occurrences)</span>").arg(m_occurrences->rowCount());
    m_crumbs->setText(themedHtml(text, palette()));
    m_crumbs->setToolTip(breadcrumb());
}

void OperatorBrowser::navigate() {
    showLevel();
    emit levelChanged();
}

}  // namespace contend::widgets
