/**
 * Sample products for the AI quality harness, one per field, with hand-labelled answers.
 *
 * The labels were written from the product text and the simulator's subreddit list
 * (packages/reddit-sim/src/corpus/topics.ts) before the engine was run on them, and were not tuned
 * afterwards. `keywords` are what a person would search Reddit for; `subreddits` are the simulator's
 * communities where the ideal client plausibly asks for such a product.
 */
export interface SampleProduct {
  id: string;
  field: string;
  product_description: string;
  ideal_client_profile: string;
  call_to_action: string;
  writing_style: string;
  labels: {
    product_keywords: string[];
    icp_keywords: string[];
    subreddits: string[];
  };
}

export const SAMPLE_PRODUCTS: SampleProduct[] = [
  {
    id: 'churnpilot',
    field: 'SaaS',
    product_description:
      'ChurnPilot is a churn analytics tool for subscription software. It connects to Stripe in two clicks and shows MRR, churn rate, failed payments and cohort retention in one dashboard, then sends dunning emails to recover failed payments automatically.',
    ideal_client_profile:
      'Founders of bootstrapped SaaS startups and indie hackers with 50 to 2,000 paying customers who still track MRR and churn in a spreadsheet.',
    call_to_action: 'Try it free for 14 days at churnpilot.io',
    writing_style: 'Friendly, founder to founder, no hard sell.',
    labels: {
      product_keywords: [
        'churn',
        'churn analytics',
        'churn rate',
        'mrr',
        'stripe',
        'failed payments',
        'dunning',
        'cohort retention',
        'subscription analytics',
      ],
      icp_keywords: ['saas founders', 'bootstrapped startups', 'indie hackers', 'spreadsheet'],
      subreddits: [
        'SaaS',
        'startups',
        'indiehackers',
        'microsaas',
        'SaaSFounders',
        'B2BSaaS',
        'Entrepreneur',
        'EntrepreneurRideAlong',
        'SideProject',
      ],
    },
  },
  {
    id: 'queuely',
    field: 'Marketing',
    product_description:
      'Queuely is a social media scheduler for small agencies. Plan a month of LinkedIn, Instagram and TikTok posts on one calendar, get client approval with a shareable link, and see which posts bring clicks and signups.',
    ideal_client_profile:
      'Social media managers and small marketing agencies handling 5 to 30 client accounts on a tight budget.',
    call_to_action: 'Grab a free 30-day trial at queuely.app',
    writing_style: 'Casual and helpful, short sentences.',
    labels: {
      product_keywords: [
        'social media scheduler',
        'linkedin',
        'instagram',
        'tiktok',
        'content calendar',
        'client approval',
        'post scheduling',
      ],
      icp_keywords: ['social media manager', 'marketing agency', 'client accounts', 'small agency'],
      subreddits: [
        'socialmedia',
        'marketing',
        'digital_marketing',
        'content_marketing',
        'AskMarketing',
        'growthhacking',
      ],
    },
  },
  {
    id: 'liftlog',
    field: 'Fitness',
    product_description:
      'LiftLog is a strength training app for people who work out at home with dumbbells or just their bodyweight. It builds a progressive overload plan, tracks sets and reps, and adjusts the next workout when you miss a session.',
    ideal_client_profile:
      'Busy adults and beginners who train in a home gym or with bodyweight exercises and want to get stronger without a personal trainer.',
    call_to_action: 'The first month is free on iOS and Android, just search LiftLog.',
    writing_style: 'Encouraging and upbeat, like a gym buddy.',
    labels: {
      product_keywords: [
        'strength training',
        'home workout',
        'progressive overload',
        'dumbbells',
        'bodyweight',
        'workout plan',
        'sets and reps',
        'workout tracker',
      ],
      icp_keywords: ['home gym', 'beginners', 'personal trainer', 'bodyweight exercises'],
      subreddits: ['Fitness', 'bodyweightfitness', 'homegym', 'weightroom', 'GYM', 'xxfitness'],
    },
  },
  {
    id: 'pennyplan',
    field: 'Personal finance',
    product_description:
      'PennyPlan is a budgeting app that links to your bank, sorts every transaction into envelopes and warns you before a bill would overdraw your account. It helps you pay off debt with a snowball or avalanche plan.',
    ideal_client_profile:
      'Young professionals and families living paycheck to paycheck who want to stop overdraft fees, build an emergency fund and get out of credit card debt.',
    call_to_action: 'You can try PennyPlan free for 30 days at pennyplan.com',
    writing_style: 'Warm, non-judgmental, plain language.',
    labels: {
      product_keywords: [
        'budgeting app',
        'envelope budgeting',
        'bank transactions',
        'overdraft',
        'debt snowball',
        'debt avalanche',
        'bills',
      ],
      icp_keywords: [
        'paycheck to paycheck',
        'emergency fund',
        'credit card debt',
        'overdraft fees',
        'young professionals',
      ],
      subreddits: ['personalfinance', 'povertyfinance', 'budget', 'Frugal', 'DaveRamsey'],
    },
  },
  {
    id: 'nappy',
    field: 'Parenting',
    product_description:
      "Nappy is a baby sleep tracker for new parents. Log naps, night wakings and feeds with one tap, and it predicts the next sleep window from your baby's wake times so bedtime stops being a fight.",
    ideal_client_profile:
      'Exhausted new parents of newborns and toddlers up to 2 years old who struggle with naps, sleep regressions and bedtime routines.',
    call_to_action: 'Nappy is free to try on the App Store and Google Play.',
    writing_style: 'Gentle and empathetic, parent to parent.',
    labels: {
      product_keywords: [
        'baby sleep tracker',
        'baby sleep',
        'naps',
        'night wakings',
        'feeds',
        'sleep window',
        'wake times',
        'bedtime',
      ],
      icp_keywords: ['new parents', 'newborns', 'toddlers', 'sleep regressions', 'bedtime routines'],
      subreddits: ['Parenting', 'NewParents', 'beyondthebump', 'toddlers', 'Mommit', 'daddit'],
    },
  },
  {
    id: 'rentdesk',
    field: 'Real estate',
    product_description:
      'RentDesk is property management software for small landlords. Collect rent online, track maintenance requests, screen tenants and keep leases and receipts in one place, with a tax-ready expense report at year end.',
    ideal_client_profile:
      'Independent landlords and part-time property managers with 1 to 50 rental units who still collect rent by check or Venmo.',
    call_to_action: 'Start free with up to 3 units at rentdesk.io',
    writing_style: 'Professional, clear and to the point.',
    labels: {
      product_keywords: [
        'property management software',
        'rent collection',
        'online rent',
        'maintenance requests',
        'tenant screening',
        'leases',
        'expense report',
      ],
      icp_keywords: ['landlords', 'property managers', 'rental units', 'small landlords'],
      subreddits: ['Landlord', 'PropertyManagement', 'realestateinvesting', 'RealEstate'],
    },
  },
  {
    id: 'mealwise',
    field: 'Cooking',
    product_description:
      'Mealwise is a meal planning app that builds a weekly menu from what is already in your fridge, makes a grocery list sorted by aisle, and keeps meals under a budget you set.',
    ideal_client_profile:
      'Busy home cooks, meal preppers and families on a budget who waste food and spend too much on takeout.',
    call_to_action: 'Try Mealwise free for two weeks at mealwise.app',
    writing_style: 'Friendly and practical.',
    labels: {
      product_keywords: [
        'meal planning',
        'weekly menu',
        'grocery list',
        'meal prep',
        'food budget',
        'fridge',
      ],
      icp_keywords: ['home cooks', 'meal preppers', 'families on a budget', 'food waste', 'takeout'],
      subreddits: ['MealPrepSunday', 'EatCheapAndHealthy', 'budgetfood', 'Cooking'],
    },
  },
  {
    id: 'wayfarer',
    field: 'Travel',
    product_description:
      'Wayfarer is a trip planner that turns a list of places into a day-by-day itinerary with transit times, booking reminders and offline maps, and splits shared costs when you travel with friends.',
    ideal_client_profile:
      'Solo travelers, backpackers and digital nomads planning multi-city trips on a budget.',
    call_to_action: 'Wayfarer is free, grab it at wayfarer.travel',
    writing_style: 'Relaxed and curious, like a fellow traveler.',
    labels: {
      product_keywords: [
        'trip planner',
        'itinerary',
        'offline maps',
        'booking reminders',
        'transit times',
        'shared costs',
        'travel planning',
      ],
      icp_keywords: ['solo travelers', 'backpackers', 'digital nomads', 'multi-city trips', 'budget travel'],
      subreddits: [
        'travel',
        'solotravel',
        'digitalnomad',
        'backpacking',
        'Shoestring',
        'TravelHacks',
        'roadtrip',
      ],
    },
  },
  {
    id: 'proofpass',
    field: 'Photography',
    product_description:
      'ProofPass is client gallery and proofing software for photographers. Upload a wedding or portrait session, share a password-protected gallery, let clients pick favourites, and sell prints and downloads without extra work.',
    ideal_client_profile:
      'Professional wedding and portrait photographers running a small photography business.',
    call_to_action: 'Create your first gallery free at proofpass.photo',
    writing_style: 'Professional and friendly.',
    labels: {
      product_keywords: [
        'client gallery',
        'photo proofing',
        'wedding photos',
        'portrait session',
        'print sales',
        'password-protected gallery',
      ],
      icp_keywords: ['wedding photographers', 'portrait photographers', 'photography business'],
      subreddits: ['WeddingPhotography', 'photobusiness', 'photography', 'AskPhotography'],
    },
  },
  {
    id: 'billable',
    field: 'Freelancing',
    product_description:
      'Billable is invoicing and time tracking for freelancers. Start a timer per client, turn tracked hours into a branded invoice in one click, and send automatic reminders when a client pays late.',
    ideal_client_profile:
      'Freelance designers, developers, writers and consultants who bill by the hour and chase late payments.',
    call_to_action: 'Billable is free for your first 3 clients at billable.work',
    writing_style: 'Straightforward and friendly, one freelancer to another.',
    labels: {
      product_keywords: [
        'invoicing',
        'time tracking',
        'invoice',
        'timer',
        'late payments',
        'payment reminders',
        'tracked hours',
      ],
      icp_keywords: [
        'freelancers',
        'freelance designers',
        'developers',
        'writers',
        'consultants',
        'hourly billing',
      ],
      subreddits: [
        'freelance',
        'Freelancers',
        'freelanceWriters',
        'consulting',
        'graphic_design',
        'webdev',
        'Upwork',
      ],
    },
  },
  {
    id: 'stocksync',
    field: 'E-commerce',
    product_description:
      'StockSync is an inventory management app for Shopify and Etsy stores. It syncs stock across sales channels, warns you before a product sells out, and creates purchase orders for your suppliers.',
    ideal_client_profile:
      'Small online store owners and ecommerce sellers on Shopify, Etsy and WooCommerce who oversell or run out of stock.',
    call_to_action: 'Install StockSync free from the Shopify App Store.',
    writing_style: 'Helpful and concise.',
    labels: {
      product_keywords: [
        'inventory management',
        'stock sync',
        'sales channels',
        'purchase orders',
        'suppliers',
        'out of stock',
        'shopify',
        'etsy',
      ],
      icp_keywords: [
        'online store owners',
        'ecommerce sellers',
        'shopify',
        'etsy',
        'woocommerce',
        'overselling',
      ],
      subreddits: ['shopify', 'ecommerce', 'Etsy', 'EtsySellers', 'woocommerce'],
    },
  },
  {
    id: 'tutordesk',
    field: 'Education',
    product_description:
      'TutorDesk is scheduling and billing software for private tutors. Students book lessons from your availability, pay online in advance, and get automatic reminders, so no-shows and late cancellations drop.',
    ideal_client_profile:
      'Independent tutors and small tutoring businesses teaching online or in person, including language teachers and test prep coaches.',
    call_to_action: 'Set up your booking page free at tutordesk.app',
    writing_style: 'Warm and professional.',
    labels: {
      product_keywords: [
        'scheduling software',
        'lesson booking',
        'online payments',
        'reminders',
        'no-shows',
        'late cancellations',
        'tutoring',
      ],
      icp_keywords: [
        'private tutors',
        'tutoring business',
        'language teachers',
        'test prep',
        'online teaching',
      ],
      subreddits: ['Tutoring', 'OnlineLearning'],
    },
  },
  {
    id: 'pawsitive',
    field: 'Pets',
    product_description:
      'Pawsitive is an online dog training course with short daily video lessons for leash pulling, recall, crate training and reactivity, plus a progress tracker and weekly live Q&A with certified trainers.',
    ideal_client_profile:
      'New puppy owners and owners of reactive or anxious dogs who cannot afford private trainers.',
    call_to_action: 'The first week of lessons is free at pawsitive.dog',
    writing_style: 'Kind, encouraging, no jargon.',
    labels: {
      product_keywords: [
        'dog training',
        'leash pulling',
        'recall',
        'crate training',
        'reactivity',
        'video lessons',
        'certified trainers',
      ],
      icp_keywords: ['puppy owners', 'reactive dogs', 'anxious dogs', 'dog owners', 'private trainers'],
      subreddits: ['DogTraining', 'puppy101', 'reactivedogs', 'dogs'],
    },
  },
  {
    id: 'plotwise',
    field: 'Gardening',
    product_description:
      'Plotwise is a vegetable garden planner. Draw your beds, get a planting calendar for your frost dates, companion planting tips and watering reminders for every crop.',
    ideal_client_profile:
      'Home gardeners and beginners growing vegetables in raised beds, backyards or small urban spaces.',
    call_to_action: 'Plan your first garden free at plotwise.garden',
    writing_style: 'Cheerful and down to earth.',
    labels: {
      product_keywords: [
        'garden planner',
        'vegetable garden',
        'planting calendar',
        'frost dates',
        'companion planting',
        'watering reminders',
      ],
      icp_keywords: ['home gardeners', 'raised beds', 'urban gardening', 'backyard', 'growing vegetables'],
      subreddits: ['vegetablegardening', 'gardening', 'UrbanGardening', 'homestead'],
    },
  },
];
