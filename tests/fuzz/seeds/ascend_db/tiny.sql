-- A tiny torch_npu database (as tests/test_ascend_db.cpp makes): tasks with compute, PMU and
-- communication details, host APIs with their connections, counters, a step.
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO STRING_IDS VALUES (1, 'trans_TransData_0'), (2, 'AI_VECTOR_CORE'), (3, 'TransData'), (4, '"32,3,224,224"'),
  (5, 'KERNEL_AIVEC'), (6, 'Conv2D1'), (7, 'AI_CORE'), (8, 'KERNEL_AICORE'), (9, 'EVENT_WAIT'), (10, 'aiv_mte2_ratio'),
  (11, 'aiv_total_time'), (12, 'aic_mac_ratio'), (13, 'Notify Wait'), (14, 'Notify_Wait'), (15, 'hcom_allReduce__1_0_1'),
  (16, 'group0'), (17, 'launch'), (18, 'aten::add'), (19, '32,3;32,3'), (20, 'read');
CREATE TABLE META_DATA (name TEXT, value TEXT);
INSERT INTO META_DATA VALUES ('SCHEMA_VERSION', '1.0.0');
CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO ENUM_API_TYPE VALUES (10000, 'node'), (20000, 'acl'), (50001, 'op'), (50002, 'queue');
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, globalTaskId INTEGER,
  globalPid INTEGER, taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER, modelId INTEGER);
INSERT INTO TASK VALUES (10000, 12000, 0, 5, 1, 77, 5, 0, 2, 101, 0), (13000, 17000, 0, 6, 2, 77, 8, 0, 2, 102, 0),
  (17500, 19000, 0, -1, 3, 77, 9, 0, 2, 103, 0), (20000, 22000, 0, 9, 4, 77, 13, 0, 4, 104, 0);
CREATE TABLE COMPUTE_TASK_INFO (name, globalTaskId, blockDim, mixBlockDim, taskType, opType, inputShapes, waitNs);
INSERT INTO COMPUTE_TASK_INFO VALUES (1, 1, 32, 0, 2, 3, 4, 700), (6, 2, 16, 0, 7, 6, 4, 0);
CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER, value NUMERIC);
INSERT INTO TASK_PMU_INFO VALUES (1, 10, 0.97), (1, 11, 1800.0), (2, 12, 0.85);
CREATE TABLE COMMUNICATION_TASK_INFO (name, globalTaskId, taskType, planeId, groupName, size, opId);
INSERT INTO COMMUNICATION_TASK_INFO VALUES (15, 4, 14, 3, 16, 4000, 1);
CREATE TABLE COMMUNICATION_OP (opName, startNs, endNs, connectionId, groupName, opId, waitNs);
INSERT INTO COMMUNICATION_OP VALUES (15, 19500, 23000, 9, 16, 1, 300);
CREATE TABLE CANN_API (startNs, endNs, type, globalTid, connectionId, name, depth);
INSERT INTO CANN_API VALUES (8000, 9000, 10000, 330712481870, 5, 17, 0);
CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid, connectionId, name, inputShapes, type, depth);
INSERT INTO PYTORCH_API VALUES ('7000', '9500', 330712481870, 0, 18, 19, 50001, 0);
CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER);
INSERT INTO CONNECTION_IDS VALUES (0, 5);
CREATE TABLE HBM (deviceId, timestampNs, bandwidth, hbmId, type);
INSERT INTO HBM VALUES (0, 10000, 2000000000, 1, 20);
CREATE TABLE LLC (deviceId, llcId, timestampNs, hitRate, throughput, mode);
INSERT INTO LLC VALUES (0, 0, 10000, 85.5, 3000000, 20);
CREATE TABLE ACC_PMU (accId, readBwLevel, writeBwLevel, readOstLevel, writeOstLevel, timestampNs, deviceId);
INSERT INTO ACC_PMU VALUES (0, 1, 2, 3, 4, 10000, 0);
CREATE TABLE SOC_BANDWIDTH_LEVEL (l2BufferBwLevel, mataBwLevel, timestampNs, deviceId);
INSERT INTO SOC_BANDWIDTH_LEVEL VALUES (1, 2, 10000, 0);
CREATE TABLE AICORE_FREQ (deviceId, timestampNs, freq);
INSERT INTO AICORE_FREQ VALUES (0, 5000, 1800);
CREATE TABLE MSTX_EVENTS (startNs, endNs, eventType, rangeId, category, message, globalTid);
INSERT INTO MSTX_EVENTS VALUES (100, 200, 2, 0, 0, 3, 330712481870);
CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER);
INSERT INTO STEP_TIME VALUES (7, 6000, 25000);
