#include "app/gui/settings_panel.h"

#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "widgets/common/view_colors.h"

namespace contend::gui {

namespace {
// The sliders cover Thresholds' ranges: the coefficient in steps of 0.1 (slider units of 0.1),
// the overlap ratio in steps of 0.01.
constexpr double kCoefUnit = 10, kOverlapUnit = 100;
int sliderUnits(double v, double unit) { return static_cast<int>(std::lround(v * unit)); }
}  // namespace

Thresholds savedThresholds() {
    const QSettings s;
    Thresholds t;
    t.coefficient = s.value(QStringLiteral("analysis/coefficient"), Thresholds::kDefaultCoefficient).toDouble();
    t.overlapRatio = s.value(QStringLiteral("analysis/overlap"), Thresholds::kDefaultOverlapRatio).toDouble();
    return t.clamped();
}

void saveThresholds(const Thresholds& t) {
    QSettings s;
    s.setValue(QStringLiteral("analysis/coefficient"), t.coefficient);
    s.setValue(QStringLiteral("analysis/overlap"), t.overlapRatio);
}

SettingsPanel::SettingsPanel(QWidget* parent)
    : QWidget(parent),
      m_coefSlider(new QSlider(Qt::Horizontal, this)),
      m_coefSpin(new QDoubleSpinBox(this)),
      m_overlapSlider(new QSlider(Qt::Horizontal, this)),
      m_overlapSpin(new QDoubleSpinBox(this)),
      m_granularity(new QComboBox(this)),
      m_summary(new QTextBrowser(this)),
      m_unavailable(new QLabel(this)) {
    m_coefSlider->setRange(sliderUnits(Thresholds::kMinCoefficient, kCoefUnit),
                           sliderUnits(Thresholds::kMaxCoefficient, kCoefUnit));
    m_coefSlider->setPageStep(5);
    m_coefSpin->setRange(Thresholds::kMinCoefficient, Thresholds::kMaxCoefficient);
    m_coefSpin->setDecimals(2);
    m_coefSpin->setSingleStep(0.1);
    m_coefSpin->setKeyboardTracking(false);
    m_overlapSlider->setRange(sliderUnits(Thresholds::kMinOverlapRatio, kOverlapUnit),
                              sliderUnits(Thresholds::kMaxOverlapRatio, kOverlapUnit));
    m_overlapSlider->setPageStep(5);
    m_overlapSpin->setRange(Thresholds::kMinOverlapRatio, Thresholds::kMaxOverlapRatio);
    m_overlapSpin->setDecimals(2);
    m_overlapSpin->setSingleStep(0.01);
    m_overlapSpin->setKeyboardTracking(false);
    m_granularity->addItems(
        {tr("Whole network (per signature)"), tr("Per operator type"), tr("Per occurrence"), tr("Per iteration")});
    m_coefSlider->setToolTip(
        tr("An operator is flagged when its anomaly score is above this coefficient.\n"
           "Raise it for a network whose operators vary a lot."));
    m_coefSpin->setToolTip(m_coefSlider->toolTip());
    m_overlapSlider->setToolTip(
        tr("Two operators form a contention window when their overlap, divided by the\n"
           "shorter one's busy time, is at least this ratio.\n"
           "It makes and unmakes windows only: the Windows table and the outlined boxes on\n"
           "the heatmap (its bar counts them). The heatmap's cell colours are the flagged\n"
           "operators' extra wait, which the coefficient sets, not this ratio."));
    m_overlapSpin->setToolTip(m_overlapSlider->toolTip());
    m_granularity->setToolTip(tr("How the Network view lists the results"));
    m_unavailable->setWordWrap(true);
    m_unavailable->setStyleSheet(widgets::themedHtml(QStringLiteral("color: #a15c00")));
    m_unavailable->hide();

    auto pair = [this](QSlider* s, QDoubleSpinBox* b) {
        auto* row = new QHBoxLayout;
        row->addWidget(s, 1);
        row->addWidget(b);
        return row;
    };
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapAllRows);
    form->addRow(tr("Anomaly coefficient"), pair(m_coefSlider, m_coefSpin));
    form->addRow(tr("Overlap ratio threshold"), pair(m_overlapSlider, m_overlapSpin));
    form->addRow(tr("Granularity"), m_granularity);
    auto* box = new QVBoxLayout(this);
    box->addLayout(form);
    box->addWidget(m_unavailable);
    // The summary (with the bottleneck explained and what to try first) scrolls in a short dock,
    // wrapped to its width: at word boundaries, or inside a word wider than the dock.
    m_summary->setFrameShape(QFrame::NoFrame);
    m_summary->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_summary->setLineWrapMode(QTextEdit::WidgetWidth);
    m_summary->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    m_summary->setOpenLinks(false);
    m_summary->document()->setDocumentMargin(1);
    // The panel's colours, not a text field's.
    QPalette pal = m_summary->palette();
    pal.setColor(QPalette::Base, pal.color(QPalette::Window));
    m_summary->setPalette(pal);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Expanding);
    box->addWidget(m_summary, 1);

    // Slider -> spin (rounded to the slider's step), spin -> slider; either emits once.
    connect(m_coefSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker b(m_coefSpin);
        m_coefSpin->setValue(v / kCoefUnit);
        emit thresholdsChanged(thresholds());
    });
    connect(m_coefSpin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const QSignalBlocker b(m_coefSlider);
        m_coefSlider->setValue(sliderUnits(v, kCoefUnit));
        emit thresholdsChanged(thresholds());
    });
    connect(m_overlapSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker b(m_overlapSpin);
        m_overlapSpin->setValue(v / kOverlapUnit);
        emit thresholdsChanged(thresholds());
    });
    connect(m_overlapSpin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const QSignalBlocker b(m_overlapSlider);
        m_overlapSlider->setValue(sliderUnits(v, kOverlapUnit));
        emit thresholdsChanged(thresholds());
    });
    connect(m_granularity, &QComboBox::currentIndexChanged, this, &SettingsPanel::granularityChanged);
    setValues(Thresholds{}, WholeNetwork);
}

Thresholds SettingsPanel::thresholds() const { return {coefficient(), overlap()}; }

double SettingsPanel::coefficient() const { return m_coefSpin->value(); }
double SettingsPanel::overlap() const { return m_overlapSpin->value(); }
QString SettingsPanel::summary() const { return m_summaryText; }

int SettingsPanel::granularity() const { return m_granularity->currentIndex(); }

void SettingsPanel::setValues(const Thresholds& thresholds, int granularity) {
    const QSignalBlocker a(m_coefSlider), b(m_coefSpin), c(m_overlapSlider), d(m_overlapSpin), e(m_granularity);
    const Thresholds t = thresholds.clamped();
    m_coefSpin->setValue(t.coefficient);
    m_coefSlider->setValue(sliderUnits(t.coefficient, kCoefUnit));
    m_overlapSpin->setValue(t.overlapRatio);
    m_overlapSlider->setValue(sliderUnits(t.overlapRatio, kOverlapUnit));
    m_granularity->setCurrentIndex(std::clamp(granularity, 0, 3));
}

void SettingsPanel::setSummary(const QString& text) {
    m_summaryText = widgets::themedHtml(text);
    m_summary->setHtml(m_summaryText);
    // The panel is short; the whole summary with its notes is one hover away.
    m_summary->setToolTip(text.isEmpty() ? QString()
                                         : QStringLiteral("<p style='white-space:normal'>%1</p>").arg(text));
}

void SettingsPanel::setAnalysisAvailable(bool available, const QString& why) {
    m_coefSlider->setEnabled(available);
    m_coefSpin->setEnabled(available);
    m_overlapSlider->setEnabled(available);
    m_overlapSpin->setEnabled(available);
    m_unavailable->setVisible(!available && !why.isEmpty());
    m_unavailable->setText(why);
}

}  // namespace contend::gui
