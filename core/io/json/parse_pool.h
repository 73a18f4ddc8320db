#pragma once
// The JSON reader's worker threads: chunks of whole events go in, each is parsed by a
// ChunkParser of its worker's own, and the reader takes the results back in file order.
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/io/json/chunk_parser.h"

namespace contend::detail {

// A chunk handed to a worker, and what the worker made of it.
struct Job {
    Chunk chunk;
    ChunkResult result;
    bool done = false;  // under the pool's mutex
};

class ParsePool {
  public:
    // `spareBytes`: a chunk buffer of at most this size is kept for the reader to fill again
    // (takeBuffer) instead of being freed, so that a load does not fault in fresh pages for every
    // chunk; at most workers + 2 are kept.
    ParsePool(unsigned workers, std::size_t spareBytes);
    ~ParsePool();
    ParsePool(const ParsePool&) = delete;
    ParsePool& operator=(const ParsePool&) = delete;

    void submit(const std::shared_ptr<Job>& job);
    // Blocks until the job is parsed.
    void wait(Job& job);
    // A parsed chunk's buffer to fill again, or an empty vector.
    std::vector<char> takeBuffer();

  private:
    void work();

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::condition_variable m_done;
    std::deque<std::shared_ptr<Job>> m_queue;
    std::vector<std::vector<char>> m_spare;
    std::size_t m_spareBytes = 0;
    std::size_t m_spareMax = 0;
    bool m_stop = false;
};

// Workers for a load: the machine's threads, 1 to 4.
unsigned workerCount();

}  // namespace contend::detail
