#include "app/gui/settings_panel.h"

#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include "widgets/common/view_colors.h"

namespace contend::gui {

namespace {
// Coefficient slider: 0.5 .. 20 in steps of 0.1 (slider units of 0.1).
constexpr int kCoefMin = 5, kCoefMax = 200;
}  // namespace

SettingsPanel::SettingsPanel(QWidget* parent)
    : QWidget(parent),
      m_coefSlider(new QSlider(Qt::Horizontal, this)),
      m_coefSpin(new QDoubleSpinBox(this)),
      m_overlapSlider(new QSlider(Qt::Horizontal, this)),
      m_overlapSpin(new QDoubleSpinBox(this)),
      m_granularity(new QComboBox(this)),
      m_summary(new QLabel(this)),
      m_unavailable(new QLabel(this)) {
    m_coefSlider->setRange(kCoefMin, kCoefMax);
    m_coefSlider->setPageStep(5);
    m_coefSpin->setRange(0.1, 50.0);
    m_coefSpin->setDecimals(2);
    m_coefSpin->setSingleStep(0.1);
    m_coefSpin->setKeyboardTracking(false);
    m_overlapSlider->setRange(0, 100);
    m_overlapSlider->setPageStep(5);
    m_overlapSpin->setRange(0.0, 1.0);
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
           "shorter one's busy time, is at least this ratio."));
    m_overlapSpin->setToolTip(m_overlapSlider->toolTip());
    m_granularity->setToolTip(tr("How the Network view lists the results"));
    m_summary->setWordWrap(true);
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
    // The summary (with the bottleneck explained and what to try first) scrolls in a short dock.
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    scroll->setWidget(m_summary);
    box->addWidget(scroll, 1);

    // Slider -> spin (rounded to the slider's step), spin -> slider; either emits once.
    connect(m_coefSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker b(m_coefSpin);
        m_coefSpin->setValue(v / 10.0);
        emit thresholdsChanged(coefficient(), overlap());
    });
    connect(m_coefSpin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const QSignalBlocker b(m_coefSlider);
        m_coefSlider->setValue(static_cast<int>(std::lround(v * 10)));
        emit thresholdsChanged(coefficient(), overlap());
    });
    connect(m_overlapSlider, &QSlider::valueChanged, this, [this](int v) {
        const QSignalBlocker b(m_overlapSpin);
        m_overlapSpin->setValue(v / 100.0);
        emit thresholdsChanged(coefficient(), overlap());
    });
    connect(m_overlapSpin, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        const QSignalBlocker b(m_overlapSlider);
        m_overlapSlider->setValue(static_cast<int>(std::lround(v * 100)));
        emit thresholdsChanged(coefficient(), overlap());
    });
    connect(m_granularity, &QComboBox::currentIndexChanged, this, &SettingsPanel::granularityChanged);
    setValues(3.0, 0.70, WholeNetwork);
}

double SettingsPanel::coefficient() const { return m_coefSpin->value(); }
double SettingsPanel::overlap() const { return m_overlapSpin->value(); }
QString SettingsPanel::summary() const { return m_summary->text(); }

int SettingsPanel::granularity() const { return m_granularity->currentIndex(); }

void SettingsPanel::setValues(double coefficient, double overlap, int granularity) {
    const QSignalBlocker a(m_coefSlider), b(m_coefSpin), c(m_overlapSlider), d(m_overlapSpin), e(m_granularity);
    m_coefSpin->setValue(coefficient);
    m_coefSlider->setValue(static_cast<int>(std::lround(coefficient * 10)));
    m_overlapSpin->setValue(overlap);
    m_overlapSlider->setValue(static_cast<int>(std::lround(overlap * 100)));
    m_granularity->setCurrentIndex(std::clamp(granularity, 0, 3));
}

void SettingsPanel::setSummary(const QString& text) {
    m_summary->setText(widgets::themedHtml(text));
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
