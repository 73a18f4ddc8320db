#include "core/io/json/parse_pool.h"

#include <algorithm>
#include <string>

namespace contend::detail {

ParsePool::ParsePool(unsigned workers, std::size_t spareBytes) : m_spareBytes(spareBytes), m_spareMax(workers + 2) {
    for (unsigned i = 0; i < workers; ++i) m_threads.emplace_back([this] { work(); });
}

ParsePool::~ParsePool() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    for (auto& t : m_threads) t.join();
}

void ParsePool::submit(const std::shared_ptr<Job>& job) {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_queue.push_back(job);
    }
    m_cv.notify_all();
}

void ParsePool::wait(Job& job) {
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, [&] { return job.done; });
}

std::vector<char> ParsePool::takeBuffer() {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_spare.empty()) return {};
    std::vector<char> buf = std::move(m_spare.back());
    m_spare.pop_back();
    return buf;
}

void ParsePool::work() {
    ChunkParser parser;
    for (;;) {
        std::shared_ptr<Job> job;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_cv.wait(lock, [&] { return m_stop || !m_queue.empty(); });
            if (m_stop) return;  // the reader is gone: drop what is queued
            job = m_queue.front();
            m_queue.pop_front();
        }
        try {
            job->result = parser.parse(job->chunk);
        } catch (const std::bad_alloc&) {
            // An exception must not leave a worker thread (that would end the process).
            job->result.status = ParseStatus::Error;
            job->result.error.offset = -1;
            job->result.error.reason =
                "out of memory while reading the events near byte " + std::to_string(job->chunk.offset);
            job->result.error.kind = Failure::Kind::OutOfMemory;
        } catch (const std::exception& e) {
            job->result.status = ParseStatus::Error;
            job->result.error.offset = -1;
            job->result.error.reason = std::string("internal error while reading the events near byte ") +
                                       std::to_string(job->chunk.offset) + ": " + e.what();
            job->result.error.kind = Failure::Kind::Internal;
        }
        // Free the text early, or keep its buffer for the reader to fill again.
        std::vector<char> text = std::move(job->chunk.text);
        job->chunk.text = std::vector<char>();
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (text.size() <= m_spareBytes && m_spare.size() < m_spareMax) m_spare.push_back(std::move(text));
            job->done = true;
        }
        m_done.notify_all();
    }
}

unsigned workerCount() {
    unsigned n = std::thread::hardware_concurrency();
    return std::clamp(n, 1u, 4u);
}

}  // namespace contend::detail
