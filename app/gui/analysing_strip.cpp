#include "app/gui/analysing_strip.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace contend::gui {

AnalysingStrip::AnalysingStrip(QWidget* parent)
    : QWidget(parent),
      m_stage(new QLabel(this)),
      m_bar(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel Analysis"), this)) {
    setObjectName(QStringLiteral("analysingStrip"));
    setAutoFillBackground(true);
    m_stage->setTextFormat(Qt::PlainText);
    // A long stage text is cut, never widening the window.
    m_stage->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_stage->setMinimumWidth(0);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(160);
    m_bar->setMaximumHeight(m_stage->sizeHint().height());
    m_cancel->setToolTip(tr("Stop the analysis and keep the timeline without findings"));
    auto* box = new QHBoxLayout(this);
    box->setContentsMargins(6, 2, 6, 2);
    box->addWidget(m_stage, 1);
    box->addWidget(m_bar);
    box->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &AnalysingStrip::cancelRequested);
}

void AnalysingStrip::setStage(double fraction, const QString& stage) {
    m_stage->setText(stage);
    m_stage->setToolTip(stage);
    if (fraction < 0) {
        m_bar->setRange(0, 0);
    } else {
        m_bar->setRange(0, 1000);
        m_bar->setValue(static_cast<int>(fraction * 1000));
    }
}

QString AnalysingStrip::stageText() const { return m_stage->text(); }

}  // namespace contend::gui
