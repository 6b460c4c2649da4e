"""Questions with no answer, for fitting recall's abstention gates on many more than the
development set's twenty: the gates must carry over to corpora and questions nobody here sees.

Three sources, none of them the development set's report part:

- OWN_WORDS: off-topic questions and situations written for this purpose before the system was
  run on them, across software areas, many of them near-topic traps (a specific product or
  platform the memories do not cover, next to words they do: "XCTest unit tests for the Swift
  app" beside a general unit-testing entry);
- templated(): specific technologies the corpora do not cover, asked about in a few fixed ways;
- crossed(): one corpus's titles and applies_when lines asked of the other corpus (the ADR
  corpus of tests/data/recall against the development corpus, and back). The two share a
  domain (cloud infrastructure, GOV.UK services), so many of those have genuine answers: the
  220 strongest candidates of both directions together (by the fused and keyword scores of
  the engine at the time) were read by hand, and the 83 whose best hit is a precedent for
  them are listed in DROPPED and left out. The rest were not read one by one: a few real
  answers may remain among the weak ones, which only makes the fitted gates a little more
  cautious. The written questions' strongest hits were read too: one (Welsh translations,
  which the development corpus's forms service has) is in DROPPED for that corpus.

`negatives(corpus)` gives them all for one corpus, "dev" or "adr", minus DROPPED.
"""

# ruff: noqa: E501 - questions and titles are quoted whole

from __future__ import annotations

from recall_dev import adr_corpus, corpus

OWN_WORDS: tuple[str, ...] = (
    "How do we write XCTest unit tests for the Swift iOS app?",
    "What heap size should the Cassandra nodes run with?",
    "How do we shard the MongoDB collections for the analytics service?",
    "Which font should the marketing site use for headings?",
    "How do we tune the garbage collector for the Go ingestion service?",
    "What is our convention for naming Terraform workspaces per region?",
    "How do we localise the mobile app's strings into Welsh and Gaelic?",
    "Should the data warehouse use Snowflake or BigQuery?",
    "How do we configure Nginx to serve brotli-compressed assets?",
    "What is our policy on tabs versus spaces in Makefiles?",
    "How do we rotate the TLS certificates on the RabbitMQ cluster?",
    "Which charting library do the dashboards use for heatmaps?",
    "How do we run Flutter golden tests in CI?",
    "What retention period do we use for Prometheus metrics?",
    "How should the Unity game client cache downloaded textures?",
    "How do we train and version machine learning models for churn prediction?",
    "Which Kotlin coroutine dispatcher should the Android app use for disk reads?",
    "How do we set up a blue-green deployment for the PHP monolith on bare metal?",
    "What is our approach to dark mode in the design system?",
    "How do we profile slow Elixir GenServer calls?",
    "How do we store user uploaded videos and transcode them to HLS?",
    "Should we write the CLI installer in PowerShell or Bash for Windows users?",
    "How do we keep the Raspberry Pi kiosks' firmware updated?",
    "What is the on-screen keyboard behaviour for the tablet checkout app?",
    "How are Excel exports of the monthly accounts formatted for finance?",
    "The Bluetooth pairing with the warehouse barcode scanners drops every few minutes.",
    "Our Jupyter notebooks keep diverging between data scientists and nobody can reproduce last quarter's chart.",
    "The Shopify storefront theme broke after the merchant changed the currency to yen.",
    "Every time the SAP batch import runs the invoice numbers come out in the wrong order.",
    "Our Swift app crashes on launch on iPads running an old iOS version.",
    "The Kafka Streams join between orders and payments emits duplicates after a rebalance.",
    "The Postgres replica lags by twenty minutes whenever the nightly reindex runs.",
    "The WordPress blog got defaced through an outdated plugin.",
    "Players in the multiplayer lobby see each other teleport when latency spikes.",
    "The printer driver on the reception PCs keeps reinstalling itself after Windows updates.",
    "The iOS push notifications stopped arriving after our Apple certificate expired.",
    "Our Airflow DAGs pile up because one sensor task never times out.",
    "The 3D renderer drops frames whenever a shadow-casting light moves.",
    "Customers in Japan see garbled characters in the CSV they download from the reporting page.",
    "The voice assistant misunderstands product names with accents.",
    "Our Haskell build takes forty minutes because Stack rebuilds every dependency.",
    "The ETL job that loads weather data into the lake silently skips days with daylight saving changes.",
    "The React Native app's bundle size doubled after adding a maps SDK.",
    "Scanning QR codes in the event app fails under the venue's dim lighting.",
    "Our Salesforce sync overwrites the sales team's manual edits every night.",
    "The FPGA bitstream build fails on the new toolchain version.",
    "Copying a large VM snapshot between data centres saturates the office internet.",
    "Our Magento checkout shows the wrong VAT for customers in Norway.",
    "The smart thermostat firmware reboots when the Wi-Fi signal is weak.",
    "The COBOL batch job on the mainframe overruns its window at quarter end.",
    "How should the robot arm controller handle an emergency stop?",
    "Which colour palette is accessible for colour-blind users in our charts?",
    "How do we migrate the on-premise Exchange mailboxes to a hosted mail service?",
    "What's the approved way to benchmark GPU kernels written in CUDA?",
    "How should the payroll system round overtime hours?",
    "Our Electron desktop app uses two gigabytes of memory with three windows open.",
    "The Ansible playbook for the lab machines hangs at gathering facts.",
    "How do we price a subscription upgrade halfway through a billing month?",
    "Which SQL dialect do the Tableau workbooks use for custom fields?",
    "Our e-ink price labels in the shop show yesterday's prices until noon.",
)

#: Technologies neither corpus covers, and the ways templated() asks about them.
TECHNOLOGIES: tuple[str, ...] = (
    "the Cassandra cluster",
    "our Jenkins agents",
    "the Solr search index",
    "the Memcached tier",
    "our Hadoop jobs",
    "the Vault unseal keys",
    "the Consul service catalogue",
    "the Nomad scheduler",
    "our Puppet modules",
    "the Zabbix monitoring",
    "the Grafana Loki stack",
    "the Spark streaming jobs",
    "our Flink pipelines",
    "the ClickHouse tables",
    "the CouchDB replicas",
    "the Neo4j graph",
    "our Erlang nodes",
    "the Scala services",
    "the Laravel admin",
    "the Django REST endpoints",
    "the Angular frontend",
    "the Vue components",
    "the Svelte widgets",
    "our Unreal Engine builds",
    "the Xamarin app",
    "the Arduino sensors",
    "the Zigbee gateways",
    "the Oracle Forms screens",
    "the SharePoint intranet",
    "the Dynamics CRM plugins",
)
ASKS: tuple[str, ...] = (
    "How do we upgrade {}?",
    "Who is on call for {} and how are they paged?",
    "What's the backup and restore procedure for {}?",
    "Why is {} so slow after the last release?",
)


def templated() -> list[str]:
    """Every technology asked about in every way (module docstring)."""
    return [ask.format(tech) for tech in TECHNOLOGIES for ask in ASKS]


#: (the corpus asked, question) pairs whose best hit was, read by hand, a genuine precedent
#: (module docstring).
DROPPED: frozenset[tuple[str, str]] = frozenset(
    {
        ("adr", "A compromised GitHub Actions workflow published malicious releases"),
        ("adr", "A private repository holds code or data that must not be shared or made public"),
        (
            "adr",
            "A public service needs stronger protection against DDoS attacks and access to AWS response support",
        ),
        ("adr", "Allow mutable container image tags in ECR"),
        ("adr", "Avoid risky triggers and pin actions in GitHub workflows"),
        ("adr", "Build and deploy with CodePipeline and CodeBuild, test with GitHub Actions"),
        (
            "adr",
            "Choosing an identity provider to let users from many organisations sign in without new passwords",
        ),
        (
            "adr",
            "Creating AWS accounts or resources that must be attributable to a team and cost centre",
        ),
        ("adr", "Creating repositories and managing who can access them in a GitHub organisation"),
        (
            "adr",
            "Deciding how internal users log in to an admin tool for creating and managing forms",
        ),
        ("adr", "Deploy every merge to main automatically with GitHub Actions"),
        ("adr", "Deploy review apps per pull request in a separate AWS account"),
        ("adr", "Deploy through continuous delivery pipelines"),
        ("adr", "Designing a release pipeline from build to production across environments"),
        ("adr", "Designing deployment pipelines after moving apps into AWS accounts"),
        ("adr", "Host code on GitHub with organisation access rules"),
        ("adr", "Keep secrets out of code and in a secrets manager"),
        (
            "adr",
            "Leaving a PaaS that is being retired and choosing a container hosting platform on AWS",
        ),
        ("adr", "Letting the public upload files that will be passed on to staff"),
        ("adr", "Logs are too noisy, too costly or missing what you need"),
        ("adr", "Logs may be capturing personal or sensitive user data"),
        ("adr", "Monitor with metrics and check user-facing health"),
        ("adr", "Parameterise one set of Terraform roots per environment"),
        (
            "adr",
            "Picking an RDS configuration for Postgres databases with low, spiky load and a small budget",
        ),
        ("adr", "Protecting a public web application from common attacks and bad traffic"),
        ("adr", "Put a web application firewall in front of public apps"),
        ("adr", "Replace the internal sign-on with an external identity provider"),
        ("adr", "Scan dependencies and container images for known vulnerabilities"),
        (
            "adr",
            "Setting up domain names and DNS records for production and non-production environments",
        ),
        (
            "adr",
            "Setting up logging for applications and infrastructure so errors and security events can be investigated",
        ),
        ("adr", "Store logs centrally and make them queryable"),
        (
            "adr",
            "Terraform code is copied per environment and changes must be repeated in many places",
        ),
        (
            "adr",
            "The current single sign-on only covers one organisation and new users from other bodies need access",
        ),
        ("adr", "Tracing one request through several microservices' logs is impossible"),
        ("adr", "Use Aurora Serverless v1 Postgres for low-traffic databases"),
        ("adr", "Use metrics, logs and traces for different questions"),
        ("adr", "Use production-domain subdomains and managed DNS for every environment"),
        (
            "adr",
            "Working out which organisations may sign up and what permissions new kinds of users get",
        ),
        ("adr", "Writing or reviewing GitHub Actions workflows for CI/CD"),
        ("dev", "AWS Network Firewall"),
        ("dev", "DNS definitions for hosts and services"),
        ("dev", "DNS infrastructure"),
        ("dev", "Domain names"),
        ("dev", "Environments and Pipeline"),
        ("dev", "Keeping Terraform modules up to date"),
        ("dev", "Logging"),
        ("dev", "Managed Prometheus"),
        ("dev", "Monitoring/Alerting of ECR Image Counts"),
        ("dev", "Serverless (Lambda/Functions-as-a-Service)"),
        ("dev", "Support Deployments from Third Party CI"),
        ("dev", "Terraform Data Structure"),
        ("dev", "Terraform Module Location"),
        ("dev", "Terraform directory structure"),
        ("dev", "Use Cluster Accounts for Resources"),
        ("dev", "Use ECR As Container Registry"),
        ("dev", "Use ECR for all User Images"),
        ("dev", "Use GitHub Actions"),
        ("dev", "Use GitHub as our identity provider"),
        ("dev", "Use RDS instead of provisioned EC2 databases"),
        ("dev", "Use separate data repository"),
        ("dev", "a shared terraform module gets a new release"),
        ("dev", "adding DNS records for a service in a stack"),
        ("dev", "adding a terraform project or per-environment variables"),
        ("dev", "choosing how metrics are collected and stored for monitoring"),
        ("dev", "choosing the domain used for internal service names"),
        ("dev", "choosing the tool that runs deployment pipelines"),
        ("dev", "choosing where application and platform logs are collected"),
        ("dev", "choosing where container images are stored"),
        ("dev", "choosing where to run the log search and analytics stack"),
        ("dev", "deciding how configuration management is organised on the machines"),
        ("dev", "deciding in which account a team's cloud resources are created"),
        ("dev", "internal DNS zones"),
        ("dev", "managing users and schemas across many MySQL databases"),
        ("dev", "naming internal hosts and services in DNS"),
        ("dev", "picking the continuous integration server for platform pipelines"),
        ("dev", "planning how to move the whole site to the new hosting"),
        ("dev", "putting load balancers in front of the application hosts"),
        ("dev", "service teams need to read their application logs in the dashboard"),
        ("dev", "sharing uploaded files between backend machines"),
        ("dev", "storing per-environment variable files for terraform"),
        ("dev", "storing sensitive configuration values for terraform"),
        (
            "dev",
            "the ingress controller struggles with many ingresses or needs a web application firewall",
        ),
        ("dev", "writing a new terraform module"),
        ("dev", "How do we localise the mobile app's strings into Welsh and Gaelic?"),
    }
)


def crossed(asked: str) -> list[str]:
    """The other corpus's titles and applies_when lines, as questions for corpus `asked`."""
    other = adr_corpus() if asked == "dev" else list(corpus())
    found = dict.fromkeys(q for d in other for q in (d.title, d.applies_when) if q.strip())
    return list(found)


def negatives(asked: str) -> list[tuple[str, str]]:
    """(source, question) of every negative for corpus `asked` ("dev" or "adr"), DROPPED out."""
    found = [("own", q) for q in OWN_WORDS]
    found += [("templated", q) for q in templated()]
    found += [("crossed", q) for q in crossed(asked)]
    return [(source, q) for source, q in found if (asked, q) not in DROPPED]
