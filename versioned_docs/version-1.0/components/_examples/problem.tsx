import React from 'react';
import Problem from '@site/src/components/landing/Problem';
import {landing} from '@site/src/config';

export default function ProblemExample() {
  return <Problem content={landing.problem} />;
}
