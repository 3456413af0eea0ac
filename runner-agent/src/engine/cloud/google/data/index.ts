// The storage, BigQuery, Pub/Sub, Cloud SQL, Artifact Registry and Firestore readers, spread into
// GOOGLE_READERS (cloud/google/index.ts). The dataset IAM readers come before the dataset's: their
// fake route answers the dataset's access list first (the fake merges answers, first wins).
import type { RestReader } from '../../rest/reader.ts';
import { artifactRepositoryReader } from './artifact.ts';
import { bigqueryDatasetReader, bigqueryTableReader } from './bigquery.ts';
import { DATASET_IAM_READERS, withoutIamGrants } from './bigquery-iam.ts';
import { firestoreIndexReader, storageNotificationReader } from './firestore.ts';
import { pubsubSubscriptionReader, pubsubTopicReader } from './pubsub.ts';
import { sqlDatabaseReader, sqlUserReader } from './sql.ts';
import { sqlInstanceReader } from './sql-instance.ts';
import { storageBucketObjectReader, storageBucketReader } from './storage.ts';

export const GCP_DATA_READERS: Record<string, RestReader> = {
  google_storage_bucket: storageBucketReader,
  google_storage_bucket_object: storageBucketObjectReader,
  google_storage_notification: storageNotificationReader,
  ...DATASET_IAM_READERS,
  google_bigquery_dataset: withoutIamGrants(bigqueryDatasetReader),
  google_bigquery_table: bigqueryTableReader,
  google_pubsub_topic: pubsubTopicReader,
  google_pubsub_subscription: pubsubSubscriptionReader,
  google_sql_database_instance: sqlInstanceReader,
  google_sql_database: sqlDatabaseReader,
  google_sql_user: sqlUserReader,
  google_artifact_registry_repository: artifactRepositoryReader,
  google_firestore_index: firestoreIndexReader,
};
