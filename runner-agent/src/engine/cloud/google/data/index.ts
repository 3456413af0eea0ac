// The storage, BigQuery, Pub/Sub, Cloud SQL and Artifact Registry readers, spread into
// GOOGLE_READERS (cloud/google/index.ts).
import type { RestReader } from '../../rest/reader.ts';
import { artifactRepositoryReader } from './artifact.ts';
import { bigqueryDatasetReader, bigqueryTableReader } from './bigquery.ts';
import { pubsubSubscriptionReader, pubsubTopicReader } from './pubsub.ts';
import { sqlDatabaseReader, sqlUserReader } from './sql.ts';
import { sqlInstanceReader } from './sql-instance.ts';
import { storageBucketObjectReader, storageBucketReader } from './storage.ts';

export const GCP_DATA_READERS: Record<string, RestReader> = {
  google_storage_bucket: storageBucketReader,
  google_storage_bucket_object: storageBucketObjectReader,
  google_bigquery_dataset: bigqueryDatasetReader,
  google_bigquery_table: bigqueryTableReader,
  google_pubsub_topic: pubsubTopicReader,
  google_pubsub_subscription: pubsubSubscriptionReader,
  google_sql_database_instance: sqlInstanceReader,
  google_sql_database: sqlDatabaseReader,
  google_sql_user: sqlUserReader,
  google_artifact_registry_repository: artifactRepositoryReader,
};
