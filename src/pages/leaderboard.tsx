import React from 'react';
import {appConfig} from '../config';
import Leaderboard from '../components/screens/Leaderboard';
import MarketingLayout from '../components/layout/MarketingLayout';

export default function LeaderboardPage() {
  return (
    <MarketingLayout title="Leaderboard" description={`Products shipped with ${appConfig.appName}.`}>
      <Leaderboard />
    </MarketingLayout>
  );
}
