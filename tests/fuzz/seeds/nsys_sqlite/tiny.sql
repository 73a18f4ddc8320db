-- A tiny Nsight Systems export (as tests/test_nsys_sqlite.cpp makes): one kernel with its
-- launch, a copy, a fill, a sync, NVTX, names and GPU metrics.
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'void k<float>(float*)'), (3, 'k'), (5, 'main'),
  (6, 'cudaMemcpyAsync_v3020'), (7, 'cudaStreamSynchronize_v3020'), (8, 'cudaMemsetAsync_v3020');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '2023-11-14T22:13:20');
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2025.1'), ('EXPORT_SCHEMA_VERSION', '3.9');
CREATE TABLE TARGET_INFO_GPU (id, name, smCount, l2CacheSize, memoryBandwidth, totalMemory);
INSERT INTO TARGET_INFO_GPU VALUES (0, 'Tiny GPU', 8, 1048576, 100000000000, 8589934592);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId, demangledName, shortName,
  gridX, gridY, gridZ, blockX, blockY, blockZ, registersPerThread, staticSharedMemory, dynamicSharedMemory);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 3000, 0, 7, 42, 2, 3, 4, 2, 1, 128, 1, 1, 32, 1024, 512);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, streamId, correlationId, bytes, copyKind, srcKind, dstKind);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (4000, 5000, 0, 7, 43, 4096, 1, 0, 2);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, streamId, correlationId, value, bytes, memKind);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (5200, 5300, 0, 8, 45, 0, 256, 2);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, nameId, returnValue);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (500, 900, 1, 2063597, 42, 1, 0), (3500, 3900, 1, 2063597, 43, 6, 0),
  (5100, 5150, 1, 2063597, 45, 8, 0), (5400, 5800, 1, 2063597, 44, 7, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, streamId, correlationId, globalPid, syncType, eventId);
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (5450, 5750, 0, 7, 44, 2063597568, 3, 0);
CREATE TABLE NVTX_EVENTS (start, end, eventType, text, globalTid, textId);
INSERT INTO NVTX_EVENTS VALUES (100, 6000, 59, 'ProfilerStep#3', 2063597, NULL), (200, NULL, 34, 'a mark', 2063597, NULL);
CREATE TABLE ThreadNames (nameId, priority, globalTid);
INSERT INTO ThreadNames VALUES (5, 0, 2063597);
CREATE TABLE PROCESSES (globalPid, pid, name);
INSERT INTO PROCESSES VALUES (2063597568, 123, 'python3');
CREATE TABLE TARGET_INFO_GPU_METRICS (typeId, sourceId, typeName, metricId, metricName);
INSERT INTO TARGET_INFO_GPU_METRICS VALUES (65536, 0, 'GH100', 3, 'SM Active [Throughput %]');
CREATE TABLE GPU_METRICS (timestamp, typeId, metricId, value);
INSERT INTO GPU_METRICS VALUES (1000, 65536, 3, 40), (2000, 65536, 3, 80);
