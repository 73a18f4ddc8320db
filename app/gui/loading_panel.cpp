#include "app/gui/loading_panel.h"

#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include "widgets/common/view_colors.h"

namespace contend::gui {

LoadingPanel::LoadingPanel(QWidget* parent)
    : QWidget(parent),
      m_file(new QLabel(this)),
      m_folder(new QLabel(this)),
      m_stage(new QLabel(this)),
      m_elapsed(new QLabel(this)),
      m_bar(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_timer(new QTimer(this)) {
    QFont big = m_file->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_file->setFont(big);
    m_folder->setStyleSheet(widgets::themedHtml(QStringLiteral("color: #666")));
    m_elapsed->setStyleSheet(widgets::themedHtml(QStringLiteral("color: #666")));
    for (QLabel* l : {m_file, m_folder, m_stage, m_elapsed}) {
        l->setAlignment(Qt::AlignHCenter);
        l->setTextFormat(Qt::PlainText);
        l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    }
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(true);
    m_bar->setFixedWidth(420);
    auto* box = new QVBoxLayout(this);
    box->addStretch(2);
    box->addWidget(m_file);
    box->addWidget(m_folder);
    box->addSpacing(12);
    box->addWidget(m_stage);
    box->addWidget(m_bar, 0, Qt::AlignHCenter);
    box->addWidget(m_elapsed);
    box->addSpacing(8);
    box->addWidget(m_cancel, 0, Qt::AlignHCenter);
    box->addStretch(3);
    m_timer->setInterval(250);
    connect(m_timer, &QTimer::timeout, this, &LoadingPanel::tick);
    connect(m_cancel, &QPushButton::clicked, this, &LoadingPanel::cancelRequested);
}

void LoadingPanel::start(const QString& path) {
    const QFileInfo fi(path);
    m_file->setText(tr("Opening %1").arg(fi.fileName()));
    m_folder->setText(fi.absolutePath());
    m_stage->setText(tr("Starting…"));
    m_bar->setRange(0, 1000);
    m_bar->setValue(0);
    m_clock.start();
    tick();
    m_timer->start();
}

void LoadingPanel::setStage(double fraction, const QString& stage) {
    m_stage->setText(stage);
    if (fraction < 0) {
        m_bar->setRange(0, 0);  // busy: this stage has no fraction of its own
    } else {
        m_bar->setRange(0, 1000);
        m_bar->setValue(static_cast<int>(fraction * 1000));
    }
}

QString LoadingPanel::fileText() const { return m_file->text() + QLatin1Char('\n') + m_folder->text(); }

QString LoadingPanel::stageText() const { return m_stage->text(); }

void LoadingPanel::stop() { m_timer->stop(); }

bool LoadingPanel::running() const { return m_timer->isActive(); }

void LoadingPanel::tick() {
    m_elapsed->setText(tr("%1 s so far").arg(static_cast<double>(m_clock.elapsed()) / 1e3, 0, 'f', 1));
}

}  // namespace contend::gui
